# Records: JSON in and out, nested access, sorting with keys, dataclasses and enums.
import json, dataclasses, enum, operator
class Level(enum.Enum):
    LOW = 1
    HIGH = 2
@dataclasses.dataclass(order=True)
class Ticket:
    priority: int
    title: str
    tags: list = dataclasses.field(default_factory=list)
raw = json.dumps([{"priority": i % 5, "title": f"task {i}", "tags": ["a", "b"][: i % 3]} for i in range(400)])
tickets = sorted(Ticket(**item) for item in json.loads(raw))
levels = [Level.HIGH if t.priority > 2 else Level.LOW for t in tickets]
summary = {"high": levels.count(Level.HIGH), "first": dataclasses.asdict(tickets[0])}
print(json.dumps(summary, indent=2, sort_keys=True))
print(max(tickets, key=operator.attrgetter("title")).title)
