"""Each scenario's own section of the report: one module per scenario that has one, named as under scenarios/, with
NAME, view(runs, win, env) -> (Table, findings) or None, and optionally charts(runs, win). Found by listing this
package: bench/README.md, "How to add a scenario"."""
import importlib
import pkgutil

VIEWS = {view.NAME: view for view in (importlib.import_module(f"{__name__}.{module.name}")
                                      for module in pkgutil.iter_modules(__path__))}
