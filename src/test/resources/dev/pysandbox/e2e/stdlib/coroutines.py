import asyncio

async def worker(name, queue, results):
    while True:
        item = await queue.get()
        await asyncio.sleep(0.01 * item)
        results.append((name, item * item))
        queue.task_done()

async def main():
    queue, results = asyncio.Queue(), []
    for item in [3, 1, 2, 5, 4]:
        queue.put_nowait(item)
    tasks = [asyncio.create_task(worker('w%d' % i, queue, results)) for i in range(2)]
    await queue.join()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(sorted(value for _, value in results))
    squares = await asyncio.gather(*(asyncio.sleep(0.01, result=n * n) for n in range(5)))
    print(squares)
    try:
        await asyncio.wait_for(asyncio.sleep(5), timeout=0.05)
    except TimeoutError:
        print('timed out')
    async with asyncio.timeout(0.05) as cm:
        pass
    lock, event = asyncio.Lock(), asyncio.Event()
    async with lock:
        asyncio.get_running_loop().call_later(0.01, event.set)
        await event.wait()
    print('event set', lock.locked())
    async def agen():
        for i in range(3):
            yield i
            await asyncio.sleep(0)
    print([i async for i in agen()])
    return 'done'

print(asyncio.run(main()))
