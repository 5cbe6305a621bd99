"""Joining a table: the handshake (hello → challenge → join → welcome | refused), both sides."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import struct
import time
from pathlib import Path

import zmq
import zmq.asyncio

from ..envelope import (
    Message,
    b64,
    canonical,
    is_int,
    parse_canonical,
    unb64,
)
from ..identity import fingerprint, public_key_from_hex, verify
from ..roster import (
    Member,
    check_name,
    check_roster,
    entry_payload,
    names_clash,
    normalize_address,
    reads_as_seat,
)
from ..seating import game_signed
from ..tablecode import code_key, code_proof, proofs_equal
from ..transcript import (
    read_transcript,
    transcript_path,
)
from .budget import one_line, short
from .common import (
    HS_DOMAIN,
    HWM,
    K_HS,
    MESH_VERSION,
    JoinFailed,
    JoinRefused,
    MeshError,
    _split_address,
    hold_transcript,
    log,
)
from .gate import MAX_PER_ADDRESS


class HandshakeMixin:
    async def _handshake(self, address: str, code: str | None, name: str) -> None:
        t = self.timings
        dealer = self.ctx.socket(zmq.DEALER)
        if self.curve is not None:
            self.curve.dial(dealer)
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.setsockopt(zmq.SNDHWM, HWM)
        owned = True
        # a wrong code shows as a failed CurveZMQ handshake: watch for it, to say so at once (a
        # refusal by the peer's gate, past its bound on our address, as a failed authentication)
        mon = dealer.get_monitor_socket(
            zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
        )
        try:
            dealer.connect(address)
            jnonce = secrets.token_hex(32)
            addr = self._advertised(_split_address(address)[0])
            key = self.identity.key_hex
            hello = {
                "t": "hello",
                "v": MESH_VERSION,
                "name": name,
                "key": key,
                "addr": addr,
                "nonce": jnonce,
            }
            await dealer.send_multipart([K_HS, canonical(hello)])
            ch = await self._hs_answer(dealer, address, t.handshake_timeout, "challenge", mon)
            try:
                table, hnonce, hkey_hex = ch["table"], ch["nonce"], ch["key"]
                seats, rseat = ch["seats"], ch["seat"]
                bytes.fromhex(table)
                hkey = public_key_from_hex(hkey_hex)
                if (
                    len(table) != 32
                    or not isinstance(hnonce, str)
                    or not is_int(seats)
                    or not is_int(rseat)
                ):
                    raise ValueError("bad fields")
            except (KeyError, ValueError, TypeError) as e:
                raise JoinFailed(f"{address} sent a malformed challenge ({e})") from None
            ck = await asyncio.to_thread(code_key, code, table) if code is not None else None
            proof = code_proof(ck, "join", table, hnonce, jnonce, key, hkey_hex) if ck else None
            signed = {
                "t": "join",
                "table": table,
                "hnonce": hnonce,
                "jnonce": jnonce,
                "key": key,
                "proof": proof,
            }
            join = {
                "t": "join",
                "hello": hello,
                "nonce": hnonce,
                "proof": proof,
                "sig": b64(self.identity.sign(HS_DOMAIN + canonical(signed))),
                "entry_sig": b64(self.identity.sign(entry_payload(table, name, key, addr))),
            }
            await dealer.send_multipart([K_HS, canonical(join)])
            w = await self._hs_answer(dealer, address, t.handshake_timeout, "welcome")
            sig = w.pop("sig", None)
            try:
                ok = verify(hkey, unb64(sig, "welcome signature"), HS_DOMAIN + canonical(w))
            except ValueError:
                ok = False
            if not ok:
                raise JoinFailed(f"{address} sent a welcome it did not sign")
            rejoin = w.get("rejoin") is True
            path = transcript_path(table, self.home)
            if not self._known_peer(path, rseat, hkey):
                # nothing of ours vouches for this peer: it must prove it knows the code, on a
                # rejoin as on a first join (a fake table could otherwise claim we are back)
                if ck is None:
                    raise JoinFailed(
                        f"{address} cannot be checked without the table code: run the join "
                        "command with --code"
                    )
                if not proofs_equal(
                    w.get("hproof"), code_proof(ck, "host", table, hnonce, jnonce, key, hkey_hex)
                ):
                    raise JoinFailed(
                        f"{address} did not prove it knows the table code: not the table you were given"
                    )
            try:
                seat, game_info = w["seat"], w["game_info"]
                if w["table"] != table or w["seats"] != seats or not isinstance(game_info, dict):
                    raise ValueError("inconsistent welcome")
                roster = [Member.from_json(m, table, seats) for m in w["roster"]]
                mine = [m for m in roster if m.seat == seat]
                if len(mine) != 1 or mine[0].key != self.identity.public_key:
                    raise ValueError("the roster does not give us our seat")
                if not any(m.seat == rseat and m.key == hkey for m in roster):
                    raise ValueError("the roster does not hold the peer we talked to")
            except (KeyError, ValueError, TypeError) as e:
                raise JoinFailed(f"{address} sent a malformed welcome ({e})") from None
            # the host's (seat 0's) signature over the game: our key share shows it (SPEC.md
            # 5.2), so a host seating us at another game than the others is named by every seat,
            # and nobody can say it of an honest host. Any seated peer answers a rejoin, with the
            # signature its own welcome gave it: a rejoin goes on without it (ours is kept)
            host_key = next((m.key for m in roster if m.seat == 0), None)
            signed = host_key is not None and game_signed(host_key, table, game_info,
                                                          w.get("game_sig"))
            try:  # the host's seating rules, re-checked here: a modified host could skip them
                check_roster(roster)
            except ValueError as e:
                host = next(m for m in roster if m.seat == rseat)
                raise JoinFailed(
                    f"refusing the table at {address}: its host {host.name!r} "
                    f"({host.fingerprint}) seated a roster that breaks the table's rules: {e}"
                ) from None
            if rejoin and not path.exists() and w.get("yourseq") == 0:
                log.info(
                    "no transcript of seat %d here, and the table holds nothing from it: starting afresh",
                    w.get("seat"),
                )
                rejoin = False
            if not signed and not rejoin:
                raise JoinFailed(f"{address} sent a welcome without the host's signature over the "
                                 "table's game: a program of another version, or a changed one")
            if rejoin:
                if not path.exists():
                    raise MeshError(
                        f"you already have seat {seat + 1} at this table, but there is no transcript of it at {path}; "
                        "restart with the data directory (P2PCARDS_HOME) you played with"
                    )
                if self._transcript_lock is None:  # before reading: another may be writing it
                    self._transcript_lock = hold_transcript(path)
                tr = read_transcript(path, self.identity, tolerate_torn_tail=True)
                self._dial[rseat] = address
                self._dealers[rseat] = dealer
                self._dealer_addr[rseat] = address
                owned = False
                self._restore(tr)
                if self.notes.get("game_sig") is None and signed and \
                        canonical(game_info) == canonical(self.game_info):
                    self.note("game_sig", w["game_sig"])  # (a transcript from before it was kept)
                self._start()
                self._link_all(force=True)
                return
            self._setup_table(table, seats, seat, game_info, None)
            self._sealed = w.get("hold") is not True
            self._code_key = ck
            self._dial[rseat] = address
            self._dealers[rseat] = dealer
            self._dealer_addr[rseat] = address
            owned = False
            self._open_transcript(fresh=True)
            self.note("game_sig", w["game_sig"])  # what the host seated us at, for the key step
            if not self._sealed:  # a restart before the deal must wait for the seal too
                self.note("hold", True)
            if self._transport_secret is not None:  # for a resume without the code
                self.note("transport", self._transport_secret.hex())
            for m in roster:
                self._set_member(m, record=False)
            own = self._own_entry(name, addr)
            if self._members[seat] != own:  # a seat we take back: our address has changed
                self._set_member(own, record=False)
            self._record_roster()
            self._start()
            self._link_all()
        finally:
            with contextlib.suppress(zmq.ZMQError):
                dealer.disable_monitor()
            mon.close(0)
            if owned:
                dealer.close(0)
            elif not self.closed and self._dealers.get(rseat) is dealer:
                self._watch_dealer(rseat)  # our DEALER to that peer from now on

    def _known_peer(self, path: Path, rseat: object, hkey: bytes) -> bool:
        """True if our own transcript of this table seats ``hkey`` at ``rseat``."""
        if not path.exists():
            return False
        try:
            tr = read_transcript(path, self.identity, tolerate_torn_tail=True)
        except Exception:  # noqa: BLE001 -- an unreadable transcript vouches for nobody
            return False
        return any(m.get("seat") == rseat and m.get("key") == hkey.hex() for m in tr.roster)

    def _cookie(self, rid: bytes, hello: Message, window: int) -> str:
        """The challenge nonce, derived from the hello and the connection: a pending handshake
        costs no memory, so a hello flood cannot crowd out an honest join."""
        data = window.to_bytes(8, "big") + rid + canonical(hello)
        return hmac.new(self._hs_secret, data, hashlib.sha256).hexdigest()

    def _window(self) -> int:
        return int(time.time() // max(self.timings.handshake_timeout, 1.0))

    async def _hs_answer(
        self,
        dealer: zmq.asyncio.Socket,
        address: str,
        timeout: float,
        want: str,
        mon: zmq.asyncio.Socket | None = None,
    ) -> Message:
        recv = asyncio.ensure_future(dealer.recv_multipart())
        failed = asyncio.ensure_future(mon.recv_multipart()) if mon is not None else None
        try:
            done, _ = await asyncio.wait(
                {recv} | ({failed} if failed else set()),
                timeout=timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            for f in (recv, failed):
                if f is not None and not f.done():
                    f.cancel()
        if recv not in done:
            if failed is not None and failed in done:
                event = struct.unpack("=H", failed.result()[0][:2])[0]
                if event == zmq.EVENT_HANDSHAKE_FAILED_AUTH:  # its gate (gate.py), not the code
                    raise JoinRefused(
                        f"{address} refused the connection: too many connections from this "
                        "machine's address are open to it (at most "
                        f"{MAX_PER_ADDRESS}); another program here may be holding them"
                    )
                raise JoinRefused(
                    "wrong table code (the table did not accept the encrypted connection)"
                )
            raise JoinFailed(
                f"no answer from {address} within {timeout:g} s: check the address and that the host is running"
            )
        frames = recv.result()
        try:
            if len(frames) != 2 or frames[0] != K_HS:
                raise ValueError("not a handshake frame")
            msg = parse_canonical(frames[1], "handshake")
        except ValueError as e:
            raise JoinFailed(
                f"{address} answered with garbage ({e}): is that a p2pcards table?"
            ) from None
        if msg.get("t") == "refused":
            raise JoinRefused(one_line(msg.get("reason", "no reason given"), 300))
        if msg.get("t") != want:
            raise JoinFailed(f"{address} answered {short(msg.get('t'), 40)} when {want!r} was expected")
        return msg

    def _hs_reply(self, rid: bytes, msg: Message) -> None:
        self._send_now(self.router, [rid, K_HS, canonical(msg)])

    def _refuse(self, rid: bytes, reason: str, who: str) -> None:
        self._drop(f"refused {who}: {reason}")  # rate-limited: a code-guessing flood is quiet
        self._hs_reply(rid, {"t": "refused", "reason": reason})

    def _on_hello(self, rid: bytes, msg: Message) -> None:
        if msg.get("v") != MESH_VERSION:
            self._hs_reply(
                rid,
                {
                    "t": "refused",
                    "reason": f"incompatible p2pcards mesh version {short(msg.get('v'), 40)} (this table speaks {MESH_VERSION})",
                },
            )
            return
        try:
            check_name(msg["name"])
            public_key_from_hex(msg["key"])
            normalize_address(msg["addr"])
            if not isinstance(msg["nonce"], str) or len(msg["nonce"]) != 64:
                raise ValueError("bad nonce")
        except (KeyError, ValueError, TypeError) as e:
            self._drop(f"malformed hello ({short(e)})")
            return
        hnonce = self._cookie(rid, msg, self._window())
        self._hs_reply(
            rid,
            {
                "t": "challenge",
                "v": MESH_VERSION,
                "table": self.table,
                "seats": self.seats,
                "seat": self.seat,
                "key": self.identity.key_hex,
                "nonce": hnonce,
            },
        )

    def _on_join(self, rid: bytes, msg: Message) -> None:
        hello, hnonce = msg.get("hello"), msg.get("nonce")
        w = self._window()
        if not (
            isinstance(hello, dict)
            and hello.get("t") == "hello"
            and isinstance(hnonce, str)
            and any(hmac.compare_digest(hnonce, self._cookie(rid, hello, x)) for x in (w, w - 1))
        ):
            self._drop("a join without a valid challenge from us")
            return
        try:
            name, key_hex, addr, jnonce = (
                check_name(hello["name"]),
                hello["key"],
                normalize_address(hello["addr"]),
                hello["nonce"],
            )
            public_key_from_hex(key_hex)
        except (KeyError, ValueError, TypeError) as e:
            self._drop(f"malformed join ({short(e)})")
            return
        who = f"{name!r} ({fingerprint(bytes.fromhex(key_hex))})"
        key = bytes.fromhex(key_hex)
        proof = msg.get("proof")
        signed = {
            "t": "join",
            "table": self.table,
            "hnonce": hnonce,
            "jnonce": jnonce,
            "key": key_hex,
            "proof": proof,
        }
        try:
            ok = verify(key, unb64(msg.get("sig"), "sig"), HS_DOMAIN + canonical(signed))
            entry = Member.from_json(
                {
                    "seat": 0,
                    "name": name,
                    "key": key_hex,
                    "addr": addr,
                    "sig": msg.get("entry_sig"),
                },
                self.table,
                self.seats,
            )
        except ValueError as e:
            self._drop(f"malformed join from {who} ({short(e)})")
            return
        if not ok:
            self._drop(f"join from {who} with a bad signature")
            return
        existing = next((m for m in self._members.values() if m.key == key), None)
        hproof = None
        if existing is not None:
            # it links to everyone with its own entry (and maybe a new address) once it resumes
            log.info("seat %d: %s takes seat %d back", self.seat, who, existing.seat)
            seat, rejoin = existing.seat, True
            if self._code_key is not None:  # it checks that we know the code, as on a first join
                hproof = code_proof(
                    self._code_key,
                    "host",
                    self.table,
                    hnonce,
                    jnonce,
                    key_hex,
                    self.identity.key_hex,
                )
        elif self.seat != 0:
            self._refuse(
                rid, "this peer does not seat new players; join through the host's address", who
            )
            return
        elif key in self._removed_keys:
            self._refuse(rid, "the host removed this player from the table", who)
            return
        elif self._full.is_set():
            self._refuse(rid, "the table is full", who)
            return
        elif self._code_key is None or not proofs_equal(
            proof,
            code_proof(
                self._code_key, "join", self.table, hnonce, jnonce, key_hex, self.identity.key_hex
            ),
        ):
            self._refuse(
                rid, "wrong table code" if proof else "this table needs its code (--code)", who
            )
            return
        elif reads_as_seat(name):
            self._refuse(rid, f"the name {name!r} reads as a seat number; pick another one", who)
            return
        elif any(names_clash(m.name, name) for m in self._members.values()):
            taken = next(m.name for m in self._members.values() if names_clash(m.name, name))
            self._refuse(rid, f"the name {name!r} is taken at this table, or looks like "
                         f"{taken!r}; pick another one", who)
            return
        else:
            seat, rejoin = min(set(range(self.seats)) - set(self._members)), False
            hproof = code_proof(
                self._code_key, "host", self.table, hnonce, jnonce, key_hex, self.identity.key_hex
            )
        welcome: Message = {
            "t": "welcome",
            "table": self.table,
            "seats": self.seats,
            "seat": seat,
            "game_info": self.game_info,
            "game_sig": self.game_sig,
            "rejoin": rejoin,
            "yourseq": self.verifier.chains[seat].seq if self.verifier is not None else 0,
            "hproof": hproof,
            "roster": [m.to_json() for m in self.roster]
            + ([] if rejoin else [{**entry.to_json(), "seat": seat}]),
        }
        if not self._sealed:
            welcome["hold"] = True  # the host deals when it says so (it may remove a seat first)
        welcome["sig"] = b64(self.identity.sign(HS_DOMAIN + canonical(welcome)))
        if not rejoin:
            newcomer = Member(seat, name, key, addr, entry.sig)
            log.info("seat %d: %s joins at seat %d", self.seat, who, seat)
            self._set_member(newcomer)
            roster_msg = {"roster": [m.to_json() for m in self.roster]}
            for s in self._members:
                if s not in (self.seat, seat):
                    self._send_ctl(s, "roster", roster_msg)
            self._send_ctl(seat, "link", self._link_payload())
        self._hs_reply(rid, welcome)
