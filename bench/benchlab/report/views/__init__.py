"""Each scenario's own section of the report, beside the sections every scenario gets: one module per scenario that
has one, named like the scenario's module under scenarios/, with NAME (its scenario's name), view(runs, win, env) ->
(Table, findings) or None where the scenario did not run, and optionally charts(runs, win) -> HTML figures. Found by
listing this package, so a new view is its module alone; the report shows them in the scenarios' order."""
import importlib
import pkgutil

VIEWS = {view.NAME: view for view in (importlib.import_module(f"{__name__}.{module.name}")
                                      for module in pkgutil.iter_modules(__path__))}
