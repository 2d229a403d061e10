"""The public entry points: `convert`, `to_code`, `converted_call`, `do_not_convert`.

Conversion parses the function's source, runs the pipeline of converters,
and compiles the result *from the AST*, whose nodes carry the user's own file
and line numbers, inside a small factory that receives the original closure
cells: free variables stay late-bound, globals are the function's own, and a
traceback through converted code shows the user's lines. One conversion is
kept per (code object, options), so closures and lambdas created in a loop
share it.
"""
from __future__ import annotations

import ast
import collections
import contextlib
import functools
import gc
import inspect
import itertools
import threading
import time
import tokenize
import types
import warnings
from typing import Any, Callable, Optional, ParamSpec, TypeVar, overload

import gast

from autograph import backends, verbosity
from autograph.converters import comprehensions
from autograph.errors import AutoGraphError, ConversionError, SourceUnavailableError, filter_traceback, user_location
from autograph.operators import function_scope
from autograph.operators.function_scope import ConversionOptions
from autograph.operators.callers import CALLER_OVERLOADS
from autograph.operators.py_builtins import BUILTIN_OVERLOADS
from autograph.operators.strings import STR_FUNCTIONS, StagedText, str_method, with_text_arguments
from autograph.pyct import anno, mangling, parser
from autograph.pyct.to_ast import to_ast

CONVERTED_MARK = "__autograph_converted__"
DO_NOT_CONVERT_MARK = "__autograph_do_not_convert__"
_CACHE_SIZE = 4096


def node_to_source(node) -> str:
    return ast.unparse(gast.gast_to_ast(node))


class _Conversion:
    """A cached conversion: the code object of the converted function, and its source for `to_code`
    (unparsed on first request: converting does not need it)."""

    __slots__ = ("code", "alias", "_tree", "_source")

    def __init__(self, code: types.CodeType, tree: ast.AST, alias: str = "ag__"):
        self.code, self.alias, self._tree, self._source = code, alias, tree, None

    @property
    def source(self) -> str:
        """The converted function's source; preceded by its import when it calls autograph by another name
        than `ag__` (its own code uses that name), so that it still runs as printed."""
        if self._source is None:
            with _cache_lock:
                if self._source is None:
                    text = ast.unparse(self._tree)
                    if self.alias != "ag__":
                        text = f"import autograph as {self.alias}\n\n{text}"
                    self._source, self._tree = text, None
        return self._source


_cache: "collections.OrderedDict[tuple, _Conversion]" = collections.OrderedDict()
_cache_lock = threading.RLock()


_key_locks: dict = {}   # (code, options) -> lock held while that conversion is made, so threads make it once
_stats = {"conversions": 0}  # internal: how many conversions were made (cache misses); read by tests


_gc_pausers = 0          # conversions in progress that paused the cyclic garbage collector
_gc_was_enabled = False


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic GC while converting: a conversion allocates many AST nodes and frees them all at
    once, and the collections it would trigger cost ~35% of converting a 4,000-statement function."""
    global _gc_pausers, _gc_was_enabled
    with _cache_lock:
        if _gc_pausers == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _cache_lock:
            _gc_pausers -= 1
            if _gc_pausers == 0 and _gc_was_enabled:
                gc.enable()


def _conversion(fn: types.FunctionType, recursive: bool) -> _Conversion:
    # Code objects compare equal across files (co_filename is not compared): the file is part of the key.
    key = (fn.__code__, fn.__code__.co_filename, recursive)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
        key_lock = _key_locks.setdefault(key, threading.RLock())
    with key_lock:
        try:
            with _cache_lock:
                found = _cache.get(key)
            if found is None:
                started = time.perf_counter() if verbosity.level else 0.0
                with _gc_paused():
                    found = _convert_uncached(fn, recursive)
                if verbosity.level:
                    _log_conversion(fn, found, time.perf_counter() - started)
                with _cache_lock:
                    _cache[key] = found
                    _stats["conversions"] += 1
                    while len(_cache) > _CACHE_SIZE:
                        _cache.popitem(last=False)
            return found
        finally:
            with _cache_lock:
                _key_locks.pop(key, None)


def _log_conversion(fn: types.FunctionType, conversion: _Conversion, seconds: float) -> None:
    code = fn.__code__
    verbosity.logger.info("converted %s (%s:%d) in %.1f ms", fn.__qualname__, code.co_filename,
                          code.co_firstlineno, seconds * 1e3)
    if verbosity.level >= 3:
        verbosity.logger.debug("generated code of %s:\n%s", fn.__qualname__, conversion.source)


def _convert_uncached(fn: types.FunctionType, recursive: bool) -> _Conversion:
    try:
        parsed = parser.parse_function(fn)
    except tokenize.TokenError as e:  # the file no longer holds the function's text (edited after import)
        code = fn.__code__
        raise SourceUnavailableError(
            f"{code.co_filename}:{code.co_firstlineno}: the source of {fn.__qualname__} can't be read ({e.args[0]}); "
            "was the file changed after it was imported? Re-import it.") from None
    if (private := mangling.private_prefix(fn.__code__)) is not None:
        mangling.mangle(parsed.node, private)   # as Python compiled it, in the class body
    if parsed.is_lambda and (renamed := comprehensions.renamed_in(parsed.filename, parsed.node)):
        comprehensions.rename_lambda(parsed.node, renamed)   # as the conversion of the code around it did
    from autograph.pipeline import convert_node, module_alias   # the converters load on first conversion

    converted = convert_node(parsed.node, parsed.filename, fn.__name__ if not parsed.is_lambda else "lambda_",
                             recursive, free_vars=fn.__code__.co_freevars)
    alias = module_alias(converted)
    tree = to_ast(converted, converted.lineno, converted.col_offset)
    code = function_scope.note_generated(_compile(tree, fn, parsed.filename, alias),
                                         anno.get(converted, anno.Key.GENERATED_DEFS, frozenset()), fn.__qualname__)
    return _Conversion(code, tree, alias)


def _compile(converted: ast.FunctionDef, fn: types.FunctionType, filename: str, alias: str) -> types.CodeType:
    """Compile `converted` inside a factory whose parameters are the free variables (and `alias`, the
    name the generated code calls autograph by)."""
    # A function made by converted code (a lambda or def inside it) already has its alias free.
    freevars = [alias, *(v for v in fn.__code__.co_freevars if v != alias)]
    factory = ast.FunctionDef(
        name="ag__factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=v) for v in freevars], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[]),
        body=[converted, ast.Return(value=ast.Name(id=converted.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    # `converted` is fully located (pyct.to_ast): only the factory's own nodes need a location, so
    # ast.fix_missing_locations (a walk of the whole tree, ~10% of a small function's conversion) is not run.
    where = {"lineno": converted.lineno, "col_offset": converted.col_offset,
             "end_lineno": converted.lineno, "end_col_offset": converted.col_offset}
    for node in (factory, *factory.args.args, factory.body[1], factory.body[1].value):
        node.__dict__.update(where)
    module = ast.Module(body=[factory], type_ignores=[])
    code = compile(module, filename, "exec", dont_inherit=True)
    factory_code = _find_code(code, "ag__factory")
    inner = _find_code(factory_code, converted.name)
    return inner.replace(co_name=fn.__name__, co_qualname=fn.__qualname__)


def _find_code(code: types.CodeType, name: str) -> types.CodeType:
    return next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == name)


_run_generated_always = False


def run_generated_code(always: bool) -> None:
    """Make converted functions always run their generated code (True), even when no
    framework is staging values. For testing the generated code on Python values;
    by default (False) a converted function called while no registered framework
    is tracing runs the original function, which is exactly Python semantics."""
    global _run_generated_always
    _run_generated_always = bool(always)


def _dispatcher(original: types.FunctionType, generated: types.FunctionType) -> types.FunctionType:
    any_staging = backends.any_staging
    # what runs while a framework stages: the generated code, or the wrapper of it a backend's `mark_converted`
    # puts here (torch's check that torch.compile's trace makes no Python side effect it would not repeat);
    # a list, not an attribute of `converted`, because dynamo traces this function's code and reads it
    staged = [generated]

    def converted(*args, **kwargs):
        if _run_generated_always or any_staging():
            if generated.__defaults__ is not original.__defaults__ or (
                    generated.__kwdefaults__ is not original.__kwdefaults__):
                _follow_defaults(generated, original)
            try:
                return staged[0](*args, **kwargs)
            except Exception as e:   # the user's frames only (autograph.disable_traceback_filtering shows all)
                raise filter_traceback(e)   # noqa: B904 - the same exception, shorter traceback
        return original(*args, **kwargs)

    functools.update_wrapper(converted, original)
    converted.generated = generated
    converted.staged = staged
    setattr(converted, CONVERTED_MARK, True)
    # TensorFlow's own AutoGraph leaves a function with this attribute alone (it takes it for its own output):
    # `tf.function(ag.convert(f))` runs our conversion instead of converting the generated code a second time
    converted.autograph_info__ = {}
    return converted


def _follow_defaults(generated: types.FunctionType, original: types.FunctionType) -> None:
    """The generated function's default values are the original's, which the user may have replaced since
    the conversion (`f.__defaults__ = (10,)`): Python calls `f` with the new ones."""
    generated.__defaults__ = original.__defaults__
    generated.__kwdefaults__ = original.__kwdefaults__


def _instantiate(conversion: _Conversion, fn: types.FunctionType) -> types.FunctionType:
    return _dispatcher(fn, _generated_function(conversion, fn))


def _generated_function(conversion: _Conversion, fn: types.FunctionType) -> types.FunctionType:
    import autograph

    cells = {conversion.alias: types.CellType(autograph)}
    cells.update(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in conversion.code.co_freevars)
    new = types.FunctionType(conversion.code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__qualname__, new.__module__, new.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    new.__wrapped__ = fn
    setattr(new, CONVERTED_MARK, True)
    return new


# --- which callables to convert ------------------------------------------------------------------

def _never_convert(fn) -> bool:
    return (getattr(fn, CONVERTED_MARK, False) or getattr(fn, DO_NOT_CONVERT_MARK, False)
            or backends.library_module(_defining_module(fn)))


def _defining_module(fn) -> Optional[str]:
    """The module whose code `fn` runs. A function's `__module__` may be another's: `functools.wraps` copies
    the wrapped function's, so a wrapper made by a library (`contextlib.contextmanager`, a framework's
    `custom_gradient`) would pass for user code; its globals are its own module's."""
    globals_ = getattr(fn, "__globals__", None)
    if globals_ is not None:
        return globals_.get("__name__")
    return getattr(fn, "__module__", None)


# function -> what `converted_call` calls for it. A plain dict (a lookup is one hash of the function's
# identity); the target refers to the function anyway, so entries are bounded, the oldest dropped first.
_function_cache: dict = {}
_warned_no_source: set = set()


_UNCONVERTIBLE_CODE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _convert_function(fn: types.FunctionType, options: ConversionOptions) -> Callable:
    """What converted code calls for the helper `fn`: its conversion, or `fn` itself when it can't be
    converted (a generator, a function without source, a construct autograph refuses), as Python would
    run it, with one warning per function (none for a generator: Python's semantics there are exact).
    Only the function handed to `convert`/`function` itself is strict (`_convert_root`)."""
    if fn in CALLER_OVERLOADS:   # logging: it looks for the user's line on the stack (operators/callers.py)
        return CALLER_OVERLOADS[fn]
    if _never_convert(fn) or fn.__code__.co_flags & _UNCONVERTIBLE_CODE:
        if verbosity.level:
            _log_unconverted(fn)
        return fn
    try:
        return _instantiate(_conversion(fn, options.recursive), fn)
    except (SourceUnavailableError, ConversionError) as e:
        _warn_once(fn, f"autograph could not convert {fn.__qualname__} and runs it as is: {e}")
        if verbosity.level:
            verbosity.logger.info("runs %s unconverted: it can't be converted: %s", fn.__qualname__, e)
        return fn


def _log_unconverted(fn: types.FunctionType) -> None:
    """Why `converted_call` runs the helper `fn` as it is (logged once per function: the choice is cached).
    A library's function (the standard library, numpy, a framework) is logged at level 2 only."""
    if getattr(fn, CONVERTED_MARK, False):
        return                                      # converted already: it runs its generated code
    if getattr(fn, DO_NOT_CONVERT_MARK, False):
        why, at_level = "it is marked do_not_convert", 1
    elif fn.__code__.co_flags & _UNCONVERTIBLE_CODE:
        kind = "a generator" if fn.__code__.co_flags & inspect.CO_GENERATOR else "a coroutine or async generator"
        why, at_level = f"{kind} runs with Python semantics", 1
    else:
        why, at_level = f"it belongs to the library {_defining_module(fn)}", 2
    if verbosity.level >= at_level:
        verbosity.logger.info("runs %s unconverted: %s", fn.__qualname__, why)


def _warn_once(fn, message: str) -> None:
    if fn.__code__ not in _warned_no_source:
        _warned_no_source.add(fn.__code__)
        where = user_location(2)  # the user's line that called or converted fn, not a frame of a framework
        if where is None:
            warnings.warn(message, RuntimeWarning, stacklevel=4)
        else:
            warnings.warn_explicit(message, RuntimeWarning, where[0], where[1])


def _cache_function(f: types.FunctionType, options: ConversionOptions) -> Callable:
    converted = _convert_function(f, options)
    with _cache_lock:
        _function_cache[f] = converted
        while len(_function_cache) > _CACHE_SIZE:
            del _function_cache[next(iter(_function_cache))]
    return converted




def _target(f, options: ConversionOptions):
    """What to call for `f`: its converted form, an overload, or `f` itself."""
    cls = type(f)
    if cls is types.FunctionType:
        if not options.recursive:
            return f
        try:
            return _function_cache[f]
        except KeyError:
            return _cache_function(f, options)
    if cls is types.BuiltinFunctionType or cls is type and f in BUILTIN_OVERLOADS:
        if cls is not type and isinstance(f.__self__, str):   # `"{}".format(x)`, `f"{x}".find`, `"a".find(f"{x}")`
            return str_method(f)
        return BUILTIN_OVERLOADS.get(f, f)
    if cls is types.MethodDescriptorType and f in STR_FUNCTIONS:     # `str.format(template, x)`
        return STR_FUNCTIONS[f]
    if cls is types.MethodWrapperType and isinstance(f.__self__, str):    # `"1.5".__eq__(f"{x}")`, `text.__str__()`
        return str_method(f)
    if cls is types.WrapperDescriptorType and f.__objclass__ is str:      # `str.__contains__("1.5 kg", f"{x}")`
        return with_text_arguments(f, f"str.{f.__name__}() given it")
    if not options.recursive:
        return f
    if isinstance(f, types.MethodType):
        target = _target(f.__func__, options)
        return f if target is f.__func__ else types.MethodType(target, f.__self__)
    if isinstance(f, functools.partial):
        target = _target(f.func, options)
        return f if target is f.func else functools.partial(target, *f.args, **f.keywords)
    if isinstance(f, type) and issubclass(f, str) and f is not StagedText:     # `Name(f"{x}")`: refused
        return with_text_arguments(f, f"{f.__name__}() given it")
    if isinstance(f, type) or not callable(f) or _never_convert(f) or backends.library_module(type(f).__module__):
        return f
    call = getattr(type(f), "__call__", None)
    if isinstance(call, types.FunctionType):
        target = _target(call, options)
        return f if target is call else types.MethodType(target, f)
    return f


_DEFAULT_OPTIONS = ConversionOptions(recursive=True)


def callee(f, caller_fn_scope=None, options: Optional[ConversionOptions] = None):
    """What converted code calls for `f` (`ag__.callee(f, fscope)(x, k=2)`): its conversion when it is user
    code, an overload, or `f` itself. The converted code makes the call, so `f` sees the user's frame as its
    caller's. A builtin that calls the functions it is given (`map`, `sorted`'s key, ...) or a registered
    framework's function (`jax.lax.fori_loop`, `tf.nest.map_structure`) gets the user's functions converted
    (`_callbacks_converted`), through one frame of autograph's, which neither looks at."""
    if options is None:
        options = caller_fn_scope.options if caller_fn_scope is not None else _DEFAULT_OPTIONS
    target = _target(f, options)
    if options.recursive and _calls_callbacks(f, target):
        return functools.partial(_with_callbacks_converted, target, options)
    return target


def _with_callbacks_converted(target, options: ConversionOptions, *args, **kwargs):
    args, kwargs = _callbacks_converted(args, kwargs, options)
    if backends.any_leaving() and backends.framework_module(_defining_module(target)):
        args, kwargs = backends.leaving((args, kwargs))      # a framework's function: `jnp.stack([found])`
    return target(*args, **kwargs)


def _calls_callbacks(f, target) -> bool:
    """Whether `f` is a builtin that calls the functions it is handed, or a registered framework's function
    (which may: `jax.vmap`, `torch.func.grad`); not the user's own code, converted or marked do_not_convert,
    which gets the very functions it is handed, as in Python."""
    try:
        if f in _BUILTINS_CALLING_FUNCTIONS:
            return True
    except TypeError:             # unhashable
        return False
    if target is not f or f in _TAKES_FUNCTIONS_AS_THEY_ARE:
        return False
    if f.__class__ is types.BuiltinMethodType and f.__name__ == "sort" and f.__self__.__class__ is list:
        return True
    return backends.framework_module(_defining_module(f) if f.__class__ is types.FunctionType
                                     else getattr(f, "__module__", None))


def converted_call(f, args, kwargs, caller_fn_scope=None, options: Optional[ConversionOptions] = None):
    """Call `f(*args, **kwargs)`, converting `f` first when it is user code. `kwargs` is a dict, or a tuple of
    the mappings a call's keywords and `**` parts give in order (`f(a=1, **d)`), which may repeat a name."""
    if options is None:
        options = caller_fn_scope.options if caller_fn_scope is not None else _DEFAULT_OPTIONS
    target = _target(f, options)
    if kwargs and kwargs.__class__ is tuple:
        kwargs = _keywords(f, kwargs)
    if options.recursive and not getattr(target, CONVERTED_MARK, False) and f not in _TAKES_FUNCTIONS_AS_THEY_ARE:
        args, kwargs = _callbacks_converted(args, kwargs, options)
    if kwargs:
        return target(*args, **kwargs)
    return target(*args)


def _callbacks_converted(args: tuple, kwargs, options: ConversionOptions) -> tuple:
    """The functions of the user's that converted code hands to a function that is not converted (a library's:
    `tf.nest.map_structure(g, ...)`, `map(g, ...)`, `functools.reduce(g, ...)`), converted: TensorFlow's
    AutoGraph converts a function defined inside a converted one with it, so a Python `if` on a tensor in `g`
    is staged wherever `g` is called from."""
    if any(a.__class__ is types.FunctionType for a in args):
        args = tuple(_target(a, options) if a.__class__ is types.FunctionType else a for a in args)
    if kwargs and any(v.__class__ is types.FunctionType for v in kwargs.values()):
        kwargs = {k: _target(v, options) if v.__class__ is types.FunctionType else v for k, v in kwargs.items()}
    return args, kwargs


def _keywords(f, parts: tuple) -> dict:
    """The keyword arguments of a call from its parts in order: Python's TypeError for a name two parts give
    (`f(a=1, **{'a': 2})`), where one dict display of them would keep the last silently."""
    name = getattr(f, "__qualname__", type(f).__name__)
    module = getattr(f, "__module__", None)
    name = name if module in (None, "builtins") else f"{module}.{name}"   # as CPython names it
    merged: dict = {}
    for part in parts:
        if not hasattr(part, "keys"):
            raise TypeError(f"{name}() argument after ** must be a mapping, not {type(part).__name__}")
        for key in part.keys():
            if key in merged:
                raise TypeError(f"{name}() got multiple values for keyword argument '{key}'")
            merged[key] = part[key]
    return merged


# --- public API ------------------------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


@overload
def convert(fn: Callable[P, R], recursive: bool = True, fallback: bool = False) -> Callable[P, R]: ...


@overload
def convert(fn: None = None, recursive: bool = True,
            fallback: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def convert(fn=None, recursive=True, fallback=False):
    """The converted form of `fn` (or a decorator, when called without `fn`).

    On Python values it behaves exactly like `fn`; on a framework's staged
    tensors its data-dependent control flow becomes that framework's
    functional control flow. With `fallback=True` a function that can't be
    converted runs as is, with a warning, instead of raising ConversionError.
    """
    if fn is None:
        return functools.partial(convert, recursive=recursive, fallback=fallback)
    options = ConversionOptions(recursive=recursive, fallback=fallback)
    if type(fn) is types.FunctionType:
        if getattr(fn, CONVERTED_MARK, False):
            return fn
        return _convert_root(fn, options)
    if isinstance(fn, types.MethodType):
        return types.MethodType(convert(fn.__func__, recursive, fallback), fn.__self__)
    if isinstance(fn, functools.partial):
        return functools.partial(convert(fn.func, recursive, fallback), *fn.args, **fn.keywords)
    call = getattr(type(fn), "__call__", None)
    if callable(fn) and isinstance(call, types.FunctionType) and not isinstance(fn, type):
        return types.MethodType(convert(call, recursive, fallback), fn)
    _warn_once_unsourced(fn)
    return fn


def _convert_root(fn: types.FunctionType, options: ConversionOptions):
    if getattr(fn, DO_NOT_CONVERT_MARK, False):
        return fn
    try:
        converted = _instantiate(_conversion(fn, options.recursive), fn)
    except SourceUnavailableError as e:
        _warn_once(fn, f"autograph could not convert {fn.__qualname__} and runs it as is: {e}")
        if verbosity.level:
            verbosity.logger.info("runs %s unconverted: its source is unavailable", fn.__qualname__)
        return fn
    except ConversionError as e:
        if options.fallback:
            _warn_once(fn, f"autograph could not convert {fn.__qualname__} and runs it as is: {e}")
            if verbosity.level:
                verbosity.logger.info("runs %s unconverted (fallback=True): %s", fn.__qualname__, e)
            return fn
        raise e.with_traceback(None) from None
    backends.note_converted(converted)
    return converted


def _warn_once_unsourced(fn) -> None:
    if verbosity.level:
        verbosity.logger.info("runs %r unconverted: it has no Python source", fn)
    warnings.warn(f"autograph can't convert {fn!r} (it has no Python source) and runs it as is.", RuntimeWarning,
                  stacklevel=3)


to_graph = convert


def _function_of(fn) -> types.FunctionType:
    fn = getattr(fn, "python_function", fn)  # a framework's traced function
    if isinstance(fn, types.MethodType):
        return fn.__func__
    if isinstance(fn, functools.partial):
        return _function_of(fn.func)
    if type(fn) is types.FunctionType:
        return inspect.unwrap(fn, stop=lambda f: getattr(f, CONVERTED_MARK, False)) if hasattr(
            fn, "__wrapped__") and getattr(fn, CONVERTED_MARK, False) else fn
    call = getattr(type(fn), "__call__", None)
    if isinstance(call, types.FunctionType):
        return call
    raise AutoGraphError(f"to_code needs a Python function, got {fn!r}.")


def to_code(fn, recursive: bool = True) -> str:
    """The source of the converted function: readable, and runnable with `import autograph as ag__`."""
    target = _function_of(fn)
    if getattr(target, CONVERTED_MARK, False):
        target = target.__wrapped__
    if getattr(target, DO_NOT_CONVERT_MARK, False):   # runs as it is (e.g. the output of `autograph convert`)
        try:
            return inspect.cleandoc(inspect.getsource(target)) + "\n"
        except (OSError, TypeError):
            pass
    try:
        return _conversion(target, recursive).source + "\n"
    except ConversionError as e:
        raise e.with_traceback(None) from None


@overload
def do_not_convert(fn: F) -> F: ...


@overload
def do_not_convert(fn: None = None) -> Callable[[F], F]: ...


def do_not_convert(fn=None):
    """Mark `fn` to be called as is, never converted (also as a decorator)."""
    if fn is None:
        return do_not_convert
    try:
        setattr(fn, DO_NOT_CONVERT_MARK, True)
    except (AttributeError, TypeError):
        pass
    return fn


def set_loop_options(maximum_iterations=None, shape_invariants=None, parallel_iterations=None,
                     swap_memory=None) -> None:
    """Directive for the enclosing loop; in converted code it becomes the loop's options.
    Called unconverted, it does nothing."""



# autograph's own API takes the user's functions as they are (`do_not_convert(g)` inside converted code marks g)
_TAKES_FUNCTIONS_AS_THEY_ARE = frozenset({convert, to_graph, to_code, do_not_convert})
_BUILTINS_CALLING_FUNCTIONS = frozenset({
    map, filter, sorted, min, max, iter, functools.reduce, itertools.starmap, itertools.accumulate,
    itertools.filterfalse, itertools.takewhile, itertools.dropwhile, itertools.groupby})
