from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo
zones = ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'America/Sao_Paulo',
         'Asia/Tokyo', 'Europe/London', 'Pacific/Auckland', 'America/Los_Angeles', 'Africa/Cairo', 'UTC']
moments = [datetime(2024, 3, 10, 6, 59, tzinfo=timezone.utc), datetime(2024, 3, 10, 7, 0, tzinfo=timezone.utc),
           datetime(2024, 3, 31, 0, 59, tzinfo=timezone.utc), datetime(2024, 3, 31, 1, 0, tzinfo=timezone.utc),
           datetime(2024, 10, 27, 0, 59, tzinfo=timezone.utc), datetime(2024, 10, 27, 1, 0, tzinfo=timezone.utc),
           datetime(2024, 4, 6, 15, 59, tzinfo=timezone.utc), datetime(2024, 4, 6, 16, 0, tzinfo=timezone.utc),
           datetime(1995, 6, 1, 12, 0, tzinfo=timezone.utc), datetime(2038, 7, 1, 12, 0, tzinfo=timezone.utc)]
for name in zones:
    zone = ZoneInfo(name)
    print(name, ' '.join('%s/%s' % (m.astimezone(zone).strftime('%H:%M%z'), m.astimezone(zone).tzname()) for m in moments))
local = datetime(2024, 11, 3, 1, 30, tzinfo=ZoneInfo('America/New_York'))
print(local.utcoffset(), local.replace(fold=1).utcoffset(), local.dst())
print(datetime(2024, 7, 1, 12, tzinfo=ZoneInfo('Europe/Paris')) - datetime(2024, 7, 1, 12, tzinfo=ZoneInfo('America/New_York')))
