"""`runtime.train.Checkpoint`, `latest_checkpoint`, `list_variables` and `load_variable` (TensorFlow's
`tf.train`).

A checkpoint saves the Variables reachable from the objects it is given —
Variables, Modules (and `keras.Model`s), optimizers with their slots,
metrics, other checkpoints — to one NumPy `.npz` file, each value under its
path in that object graph (`model/W`, `optimizer/iterations`,
`optimizer/model/W/m`):

    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer)
    path = ckpt.save("ckpts/run")                       # 'ckpts/run-1' (file ckpts/run-1.npz)
    ckpt.restore(tf.train.latest_checkpoint("ckpts"))

`save` numbers its saves and records the latest in a `checkpoint` file in the
directory, as TensorFlow does, so `latest_checkpoint(dir)` finds it. Values
of optimizer slots not created yet are kept and restored when the slot is
created (the first update), as in TensorFlow. The file format is not
TensorFlow's: a TensorFlow checkpoint can't be read, nor ours by TensorFlow.
"""
from __future__ import annotations

import os
import re
from typing import Optional

import numpy as np

from runtime import dtypes, nest
from runtime.module import Module
from runtime.optimizers import Optimizer
from runtime.variables import Variable

_STATE_FILE = "checkpoint"


class Checkpoint:
    """Groups objects to save and restore: `Checkpoint(model=m, optimizer=opt, x=v)`."""

    def __init__(self, root=None, **objects):
        if root is not None:
            objects["root"] = root
        for name, value in objects.items():
            setattr(self, name, value)
        self._objects = objects
        self.save_counter = Variable(0, dtype=dtypes.int64, name="save_counter", trainable=False)

    def save(self, file_prefix: str) -> str:
        """Write `{file_prefix}-{n}.npz` (n counts saves) and record it as the directory's latest."""
        self.save_counter.assign_add(1)
        path = self.write(f"{file_prefix}-{int(self.save_counter.numpy())}")
        _record_latest(path)
        return path

    def write(self, file_prefix: str) -> str:
        """Write `{file_prefix}.npz` without numbering it; returns `file_prefix`."""
        directory = os.path.dirname(file_prefix)
        if directory:
            os.makedirs(directory, exist_ok=True)
        values = {key: np.asarray(var.numpy()) for key, var in self._variables().items()}
        values.update({key: np.asarray(value) for key, value in self._pending_slots().items()})
        with open(_npz(file_prefix), "wb") as f:
            np.savez(f, **values)
        return file_prefix

    def restore(self, save_path: Optional[str]) -> "CheckpointLoadStatus":
        """Assign the saved values to the Variables at the same paths (None: nothing to restore)."""
        if save_path is None:
            return CheckpointLoadStatus(set(), set())
        with np.load(_npz(save_path)) as data:
            saved = {key: data[key] for key in data.files}
        variables = self._variables()
        for key, var in variables.items():
            if key in saved:
                _assign(var, saved[key], key)
        deferred = self._defer_slots(saved, set(variables))
        return CheckpointLoadStatus(set(saved) - set(variables) - deferred, set(variables) - set(saved))

    read = restore

    def _variables(self) -> dict:
        found: dict[str, Variable] = {"save_counter": self.save_counter}
        optimizers: list = []
        for name, value in self._objects.items():
            _collect(value, name, found, optimizers, seen=set())
        by_var = {id(v): key for key, v in found.items()}
        for prefix, opt in optimizers:
            for var_id, slots in opt._slots.items():
                owner = by_var.get(var_id, opt._slot_owners[var_id].name.split(":")[0])
                found.update({f"{prefix}/{owner}/{name}": slot for name, slot in slots.items()})
        return found

    def _slot_paths(self) -> list:
        """(optimizer prefix, {variable path: variable}) for each optimizer reachable from the checkpoint."""
        found: dict[str, Variable] = {}
        optimizers: list = []
        for name, value in self._objects.items():
            _collect(value, name, found, optimizers, seen=set())
        return [(prefix, opt, found) for prefix, opt in optimizers]

    def _defer_slots(self, saved: dict, restored: set) -> set:
        """Saved slot values whose slot does not exist yet wait in their optimizer until it does."""
        deferred = set()
        for prefix, opt, found in self._slot_paths():
            for path, var in found.items():
                for name in _slot_names(opt):
                    key = f"{prefix}/{path}/{name}"
                    if key in saved and key not in restored:
                        opt._pending[(id(var), name)] = saved[key]
                        deferred.add(key)
        return deferred

    def _pending_slots(self) -> dict:
        """Restored slot values not yet given to a slot are saved again as they are."""
        out = {}
        for prefix, opt, found in self._slot_paths():
            paths = {id(v): p for p, v in found.items()}
            for (var_id, name), value in opt._pending.items():
                if var_id in paths:
                    out[f"{prefix}/{paths[var_id]}/{name}"] = value
        return out

    def __repr__(self) -> str:
        return f"<Checkpoint of {', '.join(self._objects) or 'nothing'}>"


class CheckpointLoadStatus:
    """What `restore` matched: `assert_consumed()` raises unless every saved value and every Variable
    was matched; `expect_partial()` accepts a partial match."""

    def __init__(self, unused: set, missing: set):
        self.unused, self.missing = unused, missing

    def assert_consumed(self) -> "CheckpointLoadStatus":
        if self.unused or self.missing:
            raise AssertionError(f"checkpoint not fully consumed: saved but not restored {sorted(self.unused)}; "
                                 f"not in the checkpoint {sorted(self.missing)}")
        return self

    def assert_existing_objects_matched(self) -> "CheckpointLoadStatus":
        if self.missing:
            raise AssertionError(f"Variables not in the checkpoint: {sorted(self.missing)}")
        return self

    def expect_partial(self) -> "CheckpointLoadStatus":
        return self


def latest_checkpoint(checkpoint_dir: str) -> Optional[str]:
    """The path of the newest checkpoint `save` wrote in `checkpoint_dir`, or None."""
    state = os.path.join(checkpoint_dir, _STATE_FILE)
    if not os.path.exists(state):
        return None
    with open(state, encoding="utf-8") as f:
        match = re.search(r'^model_checkpoint_path: "(.*)"$', f.read(), re.MULTILINE)
    if match is None:
        return None
    path = os.path.join(checkpoint_dir, match.group(1))
    return path if os.path.exists(_npz(path)) else None


def list_variables(ckpt_dir_or_file: str) -> list:
    """`(path, shape)` of each value saved in a checkpoint (a file, or a directory's latest), sorted by path, as
    TensorFlow's; the paths are this runtime's (`model/dense/w`, not `model/dense/w/.ATTRIBUTES/VARIABLE_VALUE`)."""
    with np.load(_npz(_checkpoint_file(ckpt_dir_or_file))) as data:
        return sorted((key, list(data[key].shape)) for key in data.files)


def load_variable(ckpt_dir_or_file: str, name: str) -> np.ndarray:
    """The value saved under `name` in a checkpoint (a file, or a directory's latest), as a NumPy array."""
    with np.load(_npz(_checkpoint_file(ckpt_dir_or_file))) as data:
        if name not in data.files:
            raise ValueError(f"{name!r} is not in the checkpoint {ckpt_dir_or_file}; "
                             f"list_variables gives the names it holds: {sorted(data.files)}.")
        return data[name]


def _checkpoint_file(ckpt_dir_or_file: str) -> str:
    if not os.path.isdir(ckpt_dir_or_file):
        return ckpt_dir_or_file
    latest = latest_checkpoint(ckpt_dir_or_file)
    if latest is None:
        raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {ckpt_dir_or_file}")
    return latest


def _record_latest(path: str) -> None:
    directory, name = os.path.split(path)
    with open(os.path.join(directory, _STATE_FILE), "w", encoding="utf-8") as f:
        f.write(f'model_checkpoint_path: "{name}"\n')


def _npz(path: str) -> str:
    return path if path.endswith(".npz") else path + ".npz"


def _assign(var: Variable, value: np.ndarray, key: str) -> None:
    if tuple(value.shape) != tuple(var.shape.as_list()):
        raise ValueError(f"checkpoint value '{key}' has shape {tuple(value.shape)} but the Variable "
                         f"'{var.name}' has shape {var.shape}.")
    var.assign(value.astype(var.dtype.as_numpy_dtype))


def _slot_names(opt: Optimizer) -> tuple:
    return tuple(opt.SLOTS)


def _collect(value, path: str, found: dict, optimizers: list, seen: set) -> None:
    """Every Variable reachable from `value`, by path; optimizers are listed for their slots."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Variable):
        found.setdefault(path, value)
    elif isinstance(value, Optimizer):
        found[f"{path}/iterations"] = value.iterations
        if value._schedule is None:   # (a schedule's rate follows from the iterations)
            found[f"{path}/learning_rate"] = value.learning_rate
        optimizers.append((path, value))
    elif isinstance(value, Checkpoint):
        for name, obj in value._objects.items():
            _collect(obj, f"{path}/{name}", found, optimizers, seen)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _collect(item, f"{path}/{i}", found, optimizers, seen)
    elif isinstance(value, dict):
        for key in nest.sorted_keys(value):
            _collect(value[key], f"{path}/{key}", found, optimizers, seen)
    elif isinstance(value, Module):
        for name, child in sorted(vars(value).items()):
            if name != "_name":
                _collect(child, f"{path}/{name}", found, optimizers, seen)
