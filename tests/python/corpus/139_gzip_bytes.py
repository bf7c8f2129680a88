import gzip
import io

payload = b'{"msg": "hello"}\n' * 50
blob = gzip.compress(payload, mtime=0)
print(blob[:4].hex(), gzip.decompress(blob) == payload)
buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
    g.write(b"streamed ")
    g.write(b"content")
buf.seek(0)
with gzip.GzipFile(fileobj=buf) as g:
    print(g.read())
try:
    gzip.decompress(b"plain text")
except gzip.BadGzipFile as e:
    print("BadGzipFile:", e)
