// The native addon as a shared library: glibc gives a library loaded with dlopen only a
// small surplus of static TLS (the addon's Rust thread-locals use that model), and past
// it Node fails to load the addon with "cannot allocate memory in static TLS block".
// This keeps the addon's TLS segment well inside that surplus.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PT_TLS = 7;
// glibc's default surplus is about 1,664 bytes and other libraries may take part of it.
const MAX_TLS_BYTES = 1280;

/** The memory size of the PT_TLS segment of a 64-bit little-endian ELF file (0: none). */
function tlsSize(elf) {
  assert.equal(elf.toString("latin1", 1, 4), "ELF", "the addon is an ELF file");
  assert.equal(elf[4], 2, "a 64-bit ELF file");
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  const phnum = elf.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (elf.readUInt32LE(at) === PT_TLS) return Number(elf.readBigUInt64LE(at + 0x28));
  }
  return 0;
}

test("the addon's thread-local storage fits the static TLS surplus glibc leaves for dlopen", () => {
  const file = fileURLToPath(new URL("../native/shellbox.node", import.meta.url));
  const size = tlsSize(readFileSync(file));
  assert.ok(size <= MAX_TLS_BYTES, `PT_TLS is ${size} bytes; keep large thread-locals boxed (limit ${MAX_TLS_BYTES})`);
});
