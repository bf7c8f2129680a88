import os
import tarfile

os.makedirs("site/img")
with open("site/index.html", "w") as f:
    f.write("<p>hi</p>")
with open("site/img/x.svg", "w") as f:
    f.write("<svg/>")
with tarfile.open("site.tar", "w") as t:
    t.add("site", arcname="site-v1")
with tarfile.open("site.tar") as t:
    names = sorted(t.getnames())
    print(names)
    t.extractall("restore", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
print(sorted(os.listdir("restore/site-v1")), open("restore/site-v1/img/x.svg").read())
info = tarfile.open("site.tar").getmember("site-v1/index.html")
print(info.isfile(), info.size, info.name)
