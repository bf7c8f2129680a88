from enum import Enum

class S(Enum):
    IDLE = "idle"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"

TRANSITIONS = {
    (S.IDLE, "start"): S.RUNNING,
    (S.RUNNING, "pause"): S.PAUSED,
    (S.PAUSED, "resume"): S.RUNNING,
    (S.RUNNING, "stop"): S.STOPPED,
    (S.PAUSED, "stop"): S.STOPPED,
}

state = S.IDLE
for event in ["start", "pause", "resume", "pause", "stop", "start"]:
    nxt = TRANSITIONS.get((state, event))
    if nxt is None:
        print(f"{state.value:8} --{event}--> rejected")
        continue
    print(f"{state.value:8} --{event}--> {nxt.value}")
    state = nxt
print("final:", state.name)
