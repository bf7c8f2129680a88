import struct

def wav_header(n_samples, rate=8000, channels=1, bits=16):
    block = channels * bits // 8
    data_size = n_samples * block
    return struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + data_size, b"WAVE", b"fmt ", 16, 1,
                       channels, rate, rate * block, block, bits, b"data", data_size)

samples = [int(1000 * ((i % 16) - 8)) for i in range(160)]
with open("tone.wav", "wb") as f:
    f.write(wav_header(len(samples)))
    f.write(struct.pack(f"<{len(samples)}h", *samples))
with open("tone.wav", "rb") as f:
    hdr = struct.unpack("<4sI4s4sIHHIIHH4sI", f.read(44))
    data = struct.unpack(f"<{hdr[12] // 2}h", f.read())
print(hdr[0], hdr[2], "rate", hdr[7], "bits", hdr[10], "samples", len(data))
print(min(data), max(data), data[:5])
