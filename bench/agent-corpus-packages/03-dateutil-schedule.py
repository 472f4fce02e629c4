from dateutil import parser, rrule
from dateutil.relativedelta import relativedelta
import datetime

stamps = ["2026-03-01T09:15:00", "March 3, 2026 4:30 PM", "2026/03/07 23:59", "Sun, 08 Mar 2026 10:00:00",
          "2026-03-15", "15 Apr 2026 08:00"]
parsed = [parser.parse(s) for s in stamps]
for s, d in zip(stamps, parsed):
    print(f"{s!r:32} -> {d.isoformat()}")
start = datetime.datetime(2026, 1, 31, 9, 0)
print([(start + relativedelta(months=i)).date().isoformat() for i in range(6)])
meetings = list(rrule.rrule(rrule.WEEKLY, byweekday=(rrule.MO, rrule.TH), dtstart=start, count=2000))
print(len(meetings), meetings[0], meetings[-1])
span = relativedelta(parsed[-1], parsed[0])
print(span.months, span.days, span.hours)
first_fridays = rrule.rrule(rrule.MONTHLY, byweekday=rrule.FR(1), dtstart=start, count=12)
print([d.date().isoformat() for d in first_fridays][:6])
