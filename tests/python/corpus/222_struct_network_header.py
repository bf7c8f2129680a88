import struct

def ip_checksum(header: bytes) -> int:
    s = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF

hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20, 0x1C46, 0x4000, 64, 6, 0,
                  bytes([192, 168, 0, 1]), bytes([192, 168, 0, 199]))
csum = ip_checksum(hdr)
print(hex(csum))
hdr = hdr[:10] + struct.pack("!H", csum) + hdr[12:]
print(ip_checksum(hdr))
ver_ihl, tos, length, ident, frag, ttl, proto, _, src, dst = struct.unpack("!BBHHHBBH4s4s", hdr)
print(ver_ihl >> 4, ver_ihl & 15, length, ttl, proto, ".".join(map(str, src)), ".".join(map(str, dst)))
print(struct.unpack("<f", struct.pack("<f", 0.1))[0], struct.unpack("<e", struct.pack("<e", 1.5)))
