class Node:
    def __init__(self, val, nxt=None):
        self.val = val
        self.next = nxt

head = Node(1, Node(2, Node(3)))
n = head
while n:
    print(n.val)
    n = n.next
print(head.next.next.next.val)
