"""The six agent tools (``read_file``, ``write_file``, ``edit_file``, ``glob``, ``grep``,
``bash``) in the shapes LLM APIs take them.

``definitions(format)`` gives their names, descriptions and JSON Schemas (the same
ones the MCP server lists) as OpenAI, Anthropic or MCP tool definitions.
``run_tool_call(sandbox, call, format)`` takes a tool call exactly as the model's
response holds it (a dict, or an SDK object with the same attributes), runs it on the
sandbox and returns the message or block that answers it in that API; a tool's
failure is answered as an error result the model can act on, not raised.

    >>> import shellbox, shellbox.tools
    >>> sb = shellbox.Sandbox(files={"notes.md": "todo\\n"})
    >>> [d["name"] for d in shellbox.tools.definitions("anthropic")][:2]
    ['read_file', 'write_file']
    >>> call = {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "cat notes.md"}}
    >>> shellbox.tools.run_tool_call_sync(sb, call, "anthropic")["content"]
    '{"exitCode":0,"status":"completed","stderr":"","stdout":"todo\\\\n","truncated":false}'
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any, Literal, Mapping, Union

from ._native import Sandbox, tool_specs
from .errors import ToolError

Format = Literal["openai", "openai-responses", "anthropic", "mcp"]
FORMATS: tuple[Format, ...] = ("openai", "openai-responses", "anthropic", "mcp")

#: A JSON object, as the tool definitions and results are.
JSON = dict[str, Any]


@lru_cache(maxsize=1)
def _specs() -> tuple[JSON, ...]:
    return tuple(json.loads(tool_specs()))


def names() -> list[str]:
    """The tools' names, in a stable order."""
    return [spec["name"] for spec in _specs()]


def definitions(format: Format = "mcp") -> list[JSON]:
    """The six tools as ``format`` defines tools:

    - ``"openai"``: Chat Completions, ``{"type": "function", "function": {"name",
      "description", "parameters"}}``;
    - ``"openai-responses"``: the Responses API, ``{"type": "function", "name",
      "description", "parameters"}``;
    - ``"anthropic"``: Messages, ``{"name", "description", "input_schema"}``;
    - ``"mcp"``: ``tools/list`` entries, ``{"name", "title", "description", "inputSchema",
      "outputSchema", "annotations"}``.

    Each call returns fresh dicts, so callers may change them.
    """
    out: list[JSON] = []
    for spec in copy.deepcopy(_specs()):
        name, description, schema = spec["name"], spec["description"], spec["inputSchema"]
        if format == "openai":
            out.append({
                "type": "function",
                "function": {"name": name, "description": description, "parameters": schema},
            })
        elif format == "openai-responses":
            out.append({"type": "function", "name": name, "description": description, "parameters": schema})
        elif format == "anthropic":
            out.append({"name": name, "description": description, "input_schema": schema})
        elif format == "mcp":
            out.append({
                "name": name,
                "title": spec["title"],
                "description": description,
                "inputSchema": schema,
                "outputSchema": spec["outputSchema"],
                "annotations": spec["annotations"],
            })
        else:
            raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
    return out


def _field(obj: Any, key: str) -> Any:
    """``obj[key]`` of a dict, or ``obj.key`` of an SDK object."""
    if isinstance(obj, Mapping):
        if key not in obj:
            raise ValueError(f"the tool call has no {key!r}")
        return obj[key]
    try:
        return getattr(obj, key)
    except AttributeError:
        raise ValueError(f"the tool call has no {key!r}") from None


def parse_call(call: Any, format: Format) -> tuple[str, str, Union[str, JSON]]:
    """The id, tool name and arguments of a model's tool call in ``format``.

    The arguments come back as the model sent them (a JSON text from OpenAI, an
    object from Anthropic and MCP); ``Sandbox.call_tool`` takes either.
    """
    if format == "openai":
        function = _field(call, "function")
        return _field(call, "id"), _field(function, "name"), _field(function, "arguments")
    if format == "openai-responses":
        return _field(call, "call_id"), _field(call, "name"), _field(call, "arguments")
    if format == "anthropic":
        return _field(call, "id"), _field(call, "name"), _field(call, "input")
    if format == "mcp":
        arguments = call.get("arguments", {}) if isinstance(call, Mapping) else getattr(call, "arguments", {})
        return "", _field(call, "name"), arguments
    raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")


def _answer(format: Format, call_id: str, output: Union[JSON, None], error: Union[ToolError, None]) -> JSON:
    """The message or block answering call ``call_id`` in ``format``."""
    body = output if error is None else error.to_dict()
    text = json.dumps(body, separators=(",", ":"), sort_keys=True)
    if format == "openai":
        return {"role": "tool", "tool_call_id": call_id, "content": text}
    if format == "openai-responses":
        return {"type": "function_call_output", "call_id": call_id, "output": text}
    return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error is not None}


async def run_tool_call(sandbox: Sandbox, call: Any, format: Format) -> JSON:
    """Runs a model's tool call on ``sandbox``; returns the answer in ``format``: a
    ``tool`` message (OpenAI), a ``function_call_output`` item (Responses), a
    ``tool_result`` block (Anthropic), or a ``tools/call`` result (MCP)."""
    call_id, name, arguments = parse_call(call, format)
    if format == "mcp":
        result: JSON = await sandbox.call_tool_mcp(name, arguments)
        return result
    try:
        output: JSON = await sandbox.call_tool(name, arguments)
    except ToolError as e:
        return _answer(format, call_id, None, e)
    return _answer(format, call_id, output, None)


def run_tool_call_sync(sandbox: Sandbox, call: Any, format: Format) -> JSON:
    """``run_tool_call`` for sync code."""
    call_id, name, arguments = parse_call(call, format)
    if format == "mcp":
        result: JSON = sandbox.call_tool_mcp_sync(name, arguments)
        return result
    try:
        output: JSON = sandbox.call_tool_sync(name, arguments)
    except ToolError as e:
        return _answer(format, call_id, None, e)
    return _answer(format, call_id, output, None)
