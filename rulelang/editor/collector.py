"""When the language server lets Python collect its garbage.

The server keeps much that lives long (the loaded stdlib, parsed modules and declarations,
indexes, the loader's caches) and makes garbage with every check, partly in reference
cycles. A collection of everything walks every tracked object: 50-350 ms once the server
has checked a few hundred edits, too long to come between an edit and its diagnostics.

So what survives is frozen (gc.freeze: out of the collections' sight) and a collection walks
only what is new: after each check, its diagnostics out, the objects made since the last
freeze are collected (well under a millisecond) and what is left is frozen. Collected
first, a check's garbage is never frozen. An object frozen while alive and dropped later in
a cycle (none was seen for the bundled rulebooks: the previous check's program dies by its
reference counts) would stay until a collection of everything (gc.unfreeze first): made
while the editor is quiet after `quiet` checks, and after `anyway` checks without a pause
(one slow edit in that many), so that such objects cannot pile up without bound."""
from __future__ import annotations

import gc


class Collector:
    def __init__(self, quiet: int = 200, anyway: int = 5000) -> None:
        self.quiet_after, self.anyway = quiet, anyway
        self.checks = 0  # since the last collection of everything
        self.full = 0  # collections of everything made (for the bench and the tests)

    def checked(self) -> None:
        """After a check, its diagnostics out."""
        self.checks += 1
        if self.full == 0 or self.checks >= self.anyway:  # (the first: the stdlib loaded)
            self.everything()
        else:
            self.new()

    def quiet(self) -> None:
        """While the editor is quiet (the games' boards just built)."""
        if self.checks >= self.quiet_after:
            self.everything()
        else:
            self.new()

    def new(self) -> None:
        """Collect what was made since the last freeze, and freeze what is left."""
        gc.collect()
        gc.freeze()

    def everything(self) -> None:
        gc.unfreeze()
        self.new()
        self.checks = 0
        self.full += 1
