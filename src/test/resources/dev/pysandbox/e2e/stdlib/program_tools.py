import argparse, doctest, logging, sys, timeit, traceback, warnings
logging.basicConfig(level=logging.INFO, format='%(levelname)s %(name)s: %(message)s', stream=sys.stdout)
log = logging.getLogger('report')
log.info('rows=%d', 3)
log.debug('hidden')
handler = logging.FileHandler('run.log')
handler.setFormatter(logging.Formatter('%(levelname)s|%(message)s'))
log.addHandler(handler)
log.warning('disk at %d%%', 91)
handler.close()
print(open('run.log').read().strip())
parser = argparse.ArgumentParser(prog='report')
parser.add_argument('path')
parser.add_argument('--limit', type=int, default=10)
parser.add_argument('-v', '--verbose', action='store_true')
print(parser.parse_args(['data.csv', '--limit', '3', '-v']))
try:
    parser.parse_args(['--limit', 'x'])
except SystemExit as e:
    print('exit', e.code)
print(parser.format_usage().strip())
def double(n):
    """
    >>> double(2)
    4
    >>> double(-1)
    -2
    """
    return n * 2
print(doctest.testmod())
seconds = timeit.timeit('sorted(range(100))', number=50)
print(type(seconds).__name__, seconds >= 0, len(timeit.repeat('1 + 1', number=10, repeat=3)))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    warnings.warn('old API', DeprecationWarning)
print(caught[0].category.__name__, caught[0].message)
try:
    {}['missing']
except KeyError:
    print(traceback.format_exc().strip().splitlines()[-1])
