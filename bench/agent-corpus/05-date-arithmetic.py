import calendar
from collections import Counter
from datetime import date, datetime, timedelta

start = date(2024, 1, 1)
end = date(2024, 12, 31)
holidays = {date(2024, 1, 1), date(2024, 5, 27), date(2024, 7, 4), date(2024, 9, 2),
            date(2024, 11, 28), date(2024, 12, 25)}
d = start
business = 0
weekday_counts = Counter()
while d <= end:
    if d.weekday() < 5 and d not in holidays:
        business += 1
    weekday_counts[calendar.day_name[d.weekday()]] += 1
    d += timedelta(days=1)
print("business days in 2024:", business)
print("weekday counts:", dict(weekday_counts))
print("leap years 1900-2100:", calendar.leapdays(1900, 2101))

for m in (2, 9):
    print(calendar.month(2024, m))
fridays13 = [date(y, m, 13).isoformat() for y in range(2020, 2031) for m in range(1, 13)
             if date(y, m, 13).weekday() == 4]
print("Friday 13ths:", len(fridays13), fridays13[:6])

t0 = datetime(2024, 3, 9, 22, 15, 30)
for delta in (timedelta(hours=5, minutes=50), timedelta(days=30), timedelta(weeks=-2, seconds=45)):
    t = t0 + delta
    print(f"{t0:%Y-%m-%d %H:%M} + {delta} -> {t.isoformat()} ({t:%a %d %b}, ISO week {t.isocalendar()[1]})")
age = date(2024, 6, 15) - date(1990, 2, 28)
print("days between:", age.days, "weeks:", age.days // 7)
print(datetime.strptime("2024-07-04 09:30", "%Y-%m-%d %H:%M").strftime("%A %B %d, %Y at %I:%M %p"))
