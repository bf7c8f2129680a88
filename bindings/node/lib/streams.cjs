"use strict";
// A spawned process's streams as web streams: stdout and stderr pulled chunk by chunk
// from the engine (so an unread stream costs nothing on the JavaScript side), stdin a
// WritableStream whose writes wait for the process's bounded pipe.

const { settle } = require("./errors.cjs");
const { toBuffer } = require("./bytes.cjs");

function readable(next) {
  return new ReadableStream(
    {
      async pull(controller) {
        const chunk = await settle(next());
        if (chunk === null || chunk === undefined) controller.close();
        else controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

function writable(proc) {
  return new WritableStream({
    async write(chunk) {
      await settle(proc.writeStdin(toBuffer(chunk, "stdin chunk")));
    },
    close() {
      proc.closeStdin();
    },
    abort() {
      proc.closeStdin();
    },
  });
}

module.exports = { readable, writable };
