import os
import shutil
import zipfile

os.makedirs("site/css")
with open("site/index.html", "w") as f:
    f.write("<h1>hi</h1>\n")
with open("site/css/a.css", "w") as f:
    f.write("h1{}\n")
name = shutil.make_archive("site_backup", "zip", root_dir="site")
print(os.path.basename(name))
with zipfile.ZipFile(name) as z:
    print(sorted(z.namelist()))
shutil.unpack_archive("site_backup.zip", "restored")
print(sorted(os.listdir("restored")), open("restored/css/a.css").read().strip())
print(sorted(n for n, *_ in shutil.get_archive_formats())[:3])
