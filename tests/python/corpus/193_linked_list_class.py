class Node:
    __slots__ = ("val", "next")
    def __init__(self, val, nxt=None):
        self.val, self.next = val, nxt

class LinkedList:
    def __init__(self, items=()):
        self.head = None
        for it in reversed(list(items)):
            self.head = Node(it, self.head)
    def __iter__(self):
        n = self.head
        while n:
            yield n.val
            n = n.next
    def reverse(self):
        prev, cur = None, self.head
        while cur:
            cur.next, prev, cur = prev, cur, cur.next
        self.head = prev
        return self
    def __repr__(self):
        return " -> ".join(map(str, self)) or "(empty)"

ll = LinkedList([1, 2, 3, 4])
print(ll, len(list(ll)), ll.reverse(), LinkedList())
