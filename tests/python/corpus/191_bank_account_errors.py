class InsufficientFunds(Exception):
    def __init__(self, needed, available):
        super().__init__(f"need {needed:.2f}, have {available:.2f}")
        self.needed, self.available = needed, available

class Account:
    def __init__(self, owner, balance=0.0):
        self.owner, self.balance = owner, balance
        self.history = []
    def deposit(self, amt):
        if amt <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amt
        self.history.append(("dep", amt))
    def withdraw(self, amt):
        if amt > self.balance:
            raise InsufficientFunds(amt, self.balance)
        self.balance -= amt
        self.history.append(("wd", amt))

acct = Account("kim", 100)
for op, amt in [("deposit", 50), ("withdraw", 30), ("deposit", -5), ("withdraw", 500), ("withdraw", 20)]:
    try:
        getattr(acct, op)(amt)
        print(f"{op:8} {amt:>6.2f} ok   balance={acct.balance:.2f}")
    except (ValueError, InsufficientFunds) as e:
        print(f"{op:8} {amt:>6.2f} FAIL {type(e).__name__}: {e}")
print(acct.history)
