import base64
import binascii

data = bytes(range(100))
mime = base64.encodebytes(data).decode()
print(mime, end="")
print(base64.decodebytes(mime.encode()) == data)
print(binascii.hexlify(b"\x01\xab"), binascii.unhexlify("01ab"), binascii.crc32(b"abc"))
print(binascii.b2a_base64(b"hi"), base64.b64encode(b"hi", altchars=b"-_"))
try:
    base64.b32decode("not valid!")
except binascii.Error as e:
    print("binascii.Error:", e)
