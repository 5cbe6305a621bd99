"""Out Of This World: table talk -- "during the main Go For It! phase, only the Vocal Player is
allowed to talk"."""

from __future__ import annotations

from .base import TableBase


class TableTalk(TableBase):
    def chat_refusal(self, seat: int) -> str | None:
        if self.phase != "go" or self.result is not None or self._diff.table_talk:
            return None
        if seat == self.turn or self.may_talk_item(seat):
            return None
        return (f"During Go For It! only the Vocal Player may talk, and that is "
                f"{self.pname(self.turn)} now; you may talk on your own turn (table talk is "
                f"free only on Easier, this game is {self._diff.name}).")
