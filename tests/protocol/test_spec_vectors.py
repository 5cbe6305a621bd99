"""SPEC.md's test vectors are what the code computes; the two-seat transcript in spec_vectors.json
is what two seats with the vector seeds send, and it audits clean from its messages alone."""

from __future__ import annotations

import hashlib
import json
import pathlib
import re

import protocol
from protocol import group as g
from protocol.audit import audit
from protocol.vectors import primitives, vectors

HERE = pathlib.Path(protocol.__file__).parent


def _spec_block() -> dict:
    text = (HERE / "SPEC.md").read_text()
    m = re.search(r"<!-- vectors:begin -->\s*```json\n(.*?)```\s*<!-- vectors:end -->", text, re.S)
    assert m, "SPEC.md lost its vectors block"
    return json.loads(m.group(1))


def test_spec_md_quotes_what_the_code_computes() -> None:
    assert _spec_block() == primitives()


def test_vector_card_points_are_valid_and_distinct() -> None:
    pts = [bytes.fromhex(h) for h in _spec_block()["card_points"]]
    assert len(set(pts)) == 5 and all(g.is_valid_point(p) for p in pts)


def test_the_vector_transcript_is_reproduced_byte_for_byte() -> None:
    saved = json.loads((HERE / "spec_vectors.json").read_text())
    assert saved == json.loads(json.dumps(vectors()))


def test_the_vector_transcript_audits_clean_from_its_messages() -> None:
    t = json.loads((HERE / "spec_vectors.json").read_text())["transcript"]
    report = audit(t["params"], [tuple(m) for m in t["messages"]])
    assert report.clean and report.verdict.complete
    assert str(report.verdict) == t["audit"]["verdict"]
    assert report.outcomes == t["audit"]["outcomes"]
    assert {m[1]["step"] for m in t["messages"]} == {"key", "shuffle", "shares", "commit",
                                                    "reveal", "member", "end"}


def test_the_rejected_vectors_are_refused_naming_their_sender() -> None:
    """SPEC.md 1: integers are JSON integers. Each rejected vector changes one value of a seat-1
    message to what Python's == takes for the original; the verifier must name seat 1 there."""
    saved = json.loads((HERE / "spec_vectors.json").read_text())
    t = saved["transcript"]
    assert len(saved["rejected"]) == 7
    for case in saved["rejected"]:
        messages = json.loads(json.dumps(t["messages"]))
        node = messages[case["message"]][1]
        for k in case["path"][:-1]:
            node = node[k]
        assert node[case["path"][-1]] == case["value"]  # equal in Python: that is the trap
        node[case["path"][-1]] = case["value"]
        v = audit(t["params"], [tuple(m) for m in messages]).verdict
        assert not v.clean and v.culprit == case["culprit"] == 1, case
        assert (v.op, v.step) == (case["op"], case["step"]), case


def test_card_points_follow_the_formula_in_spec_md() -> None:
    """SPEC.md 2.1, read as text: C_c = from_hash(SHA-512("p2pcards/v3/card" || lp(T) ||
    lp(utf8(D)) || u32(c))), from_hash being RFC 9496's (itself checked against the RFC's vectors
    in test_group.py)."""
    text = (HERE / "SPEC.md").read_text()
    assert 'C_c = from_hash(SHA-512("p2pcards/v3/card" || lp(T) || lp(utf8(D))\n|| u32(c)))' in text
    v = _spec_block()
    t, d = bytes.fromhex(v["table_id"]), v["deck_spec"].encode()

    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    for c, want in enumerate(v["card_points"]):
        h = hashlib.sha512(b"p2pcards/v3/card" + lp(t) + lp(d) + c.to_bytes(4, "big")).digest()
        assert g.from_hash(h).hex() == want
    assert json.loads(v["deck_spec"])["protocol"] == 3  # the version is in the game description


def test_every_keyed_step_states_the_key_digest_spec_md_defines() -> None:
    """SPEC.md 2.2 and 5.1, read as text: key_digest(Y) = SHA-256("p2pcards/v3/key" || Y), and
    every shuffle, shares and member message of the vector transcript carries it as ``key``
    (computed here with hashlib from the vector's joint key, not with protocol's code)."""
    text = (HERE / "SPEC.md").read_text()
    assert 'key_digest(Y)              = SHA-256("p2pcards/v3/key" || Y)' in text
    assert '"key": hex(key_digest(Y))' in " ".join(text.split())  # the field, as 5.1 words it
    v = _spec_block()
    want = hashlib.sha256(b"p2pcards/v3/key" + bytes.fromhex(v["joint_key_y"])).hexdigest()
    assert v["key_digest_y"] == want
    t = json.loads((HERE / "spec_vectors.json").read_text())["transcript"]
    keyed = [m[1] for m in t["messages"] if m[1]["step"] in ("shuffle", "shares", "member")]
    assert {m["step"] for m in keyed} == {"shuffle", "shares", "member"}
    assert all(m["key"] == want for m in keyed)
