"""Tool definitions for LLM APIs: every format lists the six tools with valid JSON
Schemas, and a model's tool call in each format runs and is answered in that
format's shape, failures included."""

from __future__ import annotations

import doctest
import json
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest

import shellbox.tools
from shellbox import Sandbox
from shellbox.tools import FORMATS, Format, definitions, run_tool_call, run_tool_call_sync

NAMES = ["read_file", "write_file", "edit_file", "glob", "grep", "bash"]


def schema_of(definition: dict[str, Any], format: Format) -> dict[str, Any]:
    if format == "openai":
        return definition["function"]["parameters"]  # type: ignore[no-any-return]
    if format == "openai-responses":
        return definition["parameters"]  # type: ignore[no-any-return]
    if format == "anthropic":
        return definition["input_schema"]  # type: ignore[no-any-return]
    return definition["inputSchema"]  # type: ignore[no-any-return]


def name_of(definition: dict[str, Any], format: Format) -> str:
    return definition["function"]["name"] if format == "openai" else definition["name"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("format", FORMATS)
def test_each_format_lists_the_six_tools_with_valid_schemas(format: Format) -> None:
    defs = definitions(format)
    assert [name_of(d, format) for d in defs] == NAMES
    for d in defs:
        schema = schema_of(d, format)
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft7Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        description = d["function"]["description"] if format == "openai" else d["description"]
        assert len(description) > 40
    if format in ("openai", "openai-responses"):
        assert all(d["type"] == "function" for d in defs)


def test_the_schemas_are_the_mcp_servers() -> None:
    mcp = {d["name"]: d for d in definitions("mcp")}
    for format in FORMATS:
        for d in definitions(format):
            assert schema_of(d, format) == mcp[name_of(d, format)]["inputSchema"]


def test_definitions_are_fresh_copies() -> None:
    definitions("mcp")[0]["name"] = "changed"
    assert definitions("mcp")[0]["name"] == "read_file"
    with pytest.raises(ValueError, match="unknown format 'gemini'"):
        definitions("gemini")  # type: ignore[arg-type]


def test_the_schemas_accept_and_refuse_what_the_tools_do() -> None:
    schemas = {d["name"]: d["inputSchema"] for d in definitions("mcp")}
    sb = Sandbox(files={"a.txt": "x\n"})
    good = {"filePath": "a.txt", "offset": 1, "limit": 5}
    jsonschema.validate(good, schemas["read_file"])
    assert sb.call_tool_sync("read_file", good)["totalLines"] == 1
    bad = {"filePath": "a.txt", "colour": "red"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schemas["read_file"])
    with pytest.raises(shellbox.ToolError) as e:
        sb.call_tool_sync("read_file", bad)
    assert e.value.kind == "invalid_input"


def test_results_match_the_output_schemas_and_read_as_text() -> None:
    defs = {d["name"]: d for d in definitions("mcp")}
    sb = Sandbox(files={"a.txt": "one\ntwo\n", "unread.md": "z\n"})
    calls = [
        ("read_file", {"filePath": "a.txt"}, "1: one\n2: two"),
        ("write_file", {"filePath": "b.txt", "content": "x\n"}, "Created /workspace/b.txt."),
        ("edit_file", {"filePath": "a.txt", "oldString": "two", "newString": "2"}, "Edited /workspace/a.txt: 1 replacement."),
        ("glob", {"pattern": "*.txt"}, "/workspace/a.txt\n/workspace/b.txt"),
        ("grep", {"pattern": "one", "outputMode": "content"}, "/workspace/a.txt:1:one"),
        ("bash", {"command": "echo hi"}, "hi\n[exit code 0]"),
    ]
    for name, arguments, text in calls:
        d = defs[name]
        jsonschema.Draft202012Validator.check_schema(d["outputSchema"])
        assert d["annotations"]["title"] == d["title"]
        result = sb.call_tool_mcp_sync(name, arguments)
        assert result["isError"] is False
        jsonschema.validate(result["structuredContent"], d["outputSchema"])
        assert result["content"][0]["text"] == text, name
    failed = sb.call_tool_mcp_sync("write_file", {"filePath": "unread.md", "content": "y"})
    assert failed["isError"] is True and "structuredContent" not in failed


def model_call(format: Format, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call as each API's response holds it."""
    if format == "openai":
        return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
    if format == "openai-responses":
        return {"type": "function_call", "call_id": "call_1", "name": name, "arguments": json.dumps(arguments)}
    if format == "anthropic":
        return {"type": "tool_use", "id": "call_1", "name": name, "input": arguments}
    return {"name": name, "arguments": arguments}


def answer_text(format: Format, answer: dict[str, Any]) -> tuple[str, bool]:
    """The answer's text and whether it reports an error, checking its shape."""
    if format == "openai":
        assert (answer["role"], answer["tool_call_id"]) == ("tool", "call_1")
        return answer["content"], "error" in json.loads(answer["content"])
    if format == "openai-responses":
        assert (answer["type"], answer["call_id"]) == ("function_call_output", "call_1")
        return answer["output"], "error" in json.loads(answer["output"])
    if format == "anthropic":
        assert (answer["type"], answer["tool_use_id"]) == ("tool_result", "call_1")
        return answer["content"], answer["is_error"]
    assert answer["content"][0]["type"] == "text"
    return answer["content"][0]["text"], answer["isError"]


def answer_data(format: Format, answer: dict[str, Any]) -> Any:
    """The result the answer carries: MCP's structuredContent (its text is for the
    model to read), the JSON text of the others."""
    if format == "mcp":
        return answer["structuredContent"]
    return json.loads(answer_text(format, answer)[0])


@pytest.mark.parametrize("format", FORMATS)
def test_a_round_trip_through_each_format(format: Format) -> None:
    sb = Sandbox(files={"notes.md": "# Notes\ntodo\n"})
    answer = run_tool_call_sync(sb, model_call(format, "read_file", {"filePath": "notes.md"}), format)
    text, failed = answer_text(format, answer)
    assert not failed and "2: todo" in text
    edit = {"filePath": "notes.md", "oldString": "todo", "newString": "done"}
    answer = run_tool_call_sync(sb, model_call(format, "edit_file", edit), format)
    assert not answer_text(format, answer)[1] and answer_data(format, answer)["replacements"] == 1
    assert sb.fs.read_text("notes.md") == "# Notes\ndone\n"
    # A failure is an answer the model can act on, not an exception.
    text, failed = answer_text(format, run_tool_call_sync(sb, model_call(format, "edit_file", edit), format))
    assert failed and "no_match" in text


@pytest.mark.parametrize("format", FORMATS)
def test_the_async_round_trip(format: Format) -> None:
    import asyncio

    sb = Sandbox()
    call = model_call(format, "bash", {"command": "echo hi"})
    answer = asyncio.run(run_tool_call(sb, call, format))
    assert not answer_text(format, answer)[1] and answer_data(format, answer)["stdout"] == "hi\n"


def test_sdk_objects_work_like_dicts() -> None:
    sb = Sandbox()
    call = SimpleNamespace(id="call_1", type="function", function=SimpleNamespace(name="glob", arguments='{"pattern": "*"}'))
    answer = run_tool_call_sync(sb, call, "openai")
    assert json.loads(answer["content"])["count"] == 0
    with pytest.raises(ValueError, match="has no 'function'"):
        run_tool_call_sync(sb, {"id": "x"}, "openai")


def test_the_module_examples_run() -> None:
    failures, tried = doctest.testmod(shellbox.tools)
    assert tried > 0 and failures == 0
