# Where imports look for files: the operator's packages after the standard library, Python sources only.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_paths(sys, packages, library):
    """packages: where the operator's installed packages are mounted read-only, or '' if none are.
    library: where the sandbox's own packages (its matplotlib) are mounted read-only, or ''."""
    # After the standard library, so that a package cannot shadow a standard module; the sandbox's own before the
    # operator's, so that a matplotlib installed from a wheel (which needs native code) does not hide the one
    # that draws here.
    if library:
        sys.path.append(library)
    if packages:
        sys.path.append(packages)

    # The standard library's folder holds GraalPy's native modules (pyexpat, _bz2, _sqlite3 ...), which the
    # sandbox refuses to load: finding one ended an import with a SystemError about native modules instead of
    # the ImportError code expects (`try: import bz2 except ImportError`). Files are searched for Python
    # sources only.
    machinery = sys.modules['_frozen_importlib_external']
    python_files = machinery.FileFinder.path_hook(
        (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES),
        (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES))
    sys.path_hooks[:] = [python_files if getattr(hook, '__name__', '') == 'path_hook_for_FileFinder' else hook
                         for hook in sys.path_hooks]
    sys.path_importer_cache.clear()
