"""ZeroDivisionError inside a converted function called on Python values: the user's line is in the traceback."""
import autograph as ag

EXPECT = ZeroDivisionError
MATCH = r"division"
LOCATION = "traceback"


@ag.convert
def mean(xs):
    total = 0
    for v in xs:
        total += v
    return total / len(xs)  # <- here


def trigger():
    return mean([])
