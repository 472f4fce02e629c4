# Dates: parsing, arithmetic, calendars and formatting.
import datetime, calendar, time
start = datetime.datetime.fromisoformat("2026-03-28T09:30")
stamps = [start + datetime.timedelta(hours=7 * i) for i in range(300)]
weekdays = [calendar.day_name[s.weekday()] for s in stamps]
print(stamps[-1].isoformat(), weekdays[:3], (stamps[-1] - stamps[0]).days)
print(calendar.monthrange(2028, 2), datetime.date(2026, 12, 31).strftime("%A %d %B %Y"))
print(sorted({s.date().isocalendar()[1] for s in stamps})[:10], time.gmtime(0).tm_year)
