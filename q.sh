echo a
echo $'abc
x
y