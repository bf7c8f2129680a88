class BST:
    def __init__(self):
        self.root = None

    def insert(self, key):
        def _ins(node):
            if node is None:
                return [key, None, None]
            idx = 1 if key < node[0] else 2
            node[idx] = _ins(node[idx])
            return node
        self.root = _ins(self.root)

    def inorder(self, node="root"):
        node = self.root if node == "root" else node
        if node:
            yield from self.inorder(node[1])
            yield node[0]
            yield from self.inorder(node[2])

    def height(self, node="root"):
        node = self.root if node == "root" else node
        return 0 if node is None else 1 + max(self.height(node[1]), self.height(node[2]))

t = BST()
for k in [50, 30, 70, 20, 40, 60, 80, 35, 45, 65]:
    t.insert(k)
print(list(t.inorder()), t.height())
