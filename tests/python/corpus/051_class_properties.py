class Temperature:
    def __init__(self, celsius=0.0):
        self._c = celsius

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError(f"below absolute zero: {value}")
        self._c = value

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

t = Temperature(25)
print(t.celsius, t.fahrenheit)
t.celsius = -40
print(t.celsius, t.fahrenheit)
try:
    t.fahrenheit = 3
except AttributeError as e:
    print("AttributeError:", e)
t.celsius = -300
