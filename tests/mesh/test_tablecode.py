import pytest

from protocol.tablecode import code_key, code_proof, new_code, new_table_id, normalize_code


def test_new_codes_are_short_and_normal():
    for _ in range(50):
        c = new_code()
        assert len(c) == 7 and c[3] == "-"
        assert normalize_code(c) == c


def test_typing_is_forgiving():
    assert normalize_code(" abc def ") == "ABC-DEF"
    assert normalize_code("o1l-i00") == "011-100"


@pytest.mark.parametrize("bad", ["", "ABCDE", "ABC-DEFG", "AB?-DEF", "ABC-DEU"])
def test_bad_codes_say_why(bad):
    with pytest.raises(ValueError, match="table code"):
        normalize_code(bad)


def test_proof_depends_on_code_and_table():
    t = new_table_id()
    k = code_key("ABC-DEF", t)
    args = (t, "n1", "n2", "aa", "bb")
    assert code_proof(k, "join", *args) == code_proof(code_key("abcdef", t), "join", *args)
    assert code_proof(k, "join", *args) != code_proof(k, "host", *args)
    assert code_proof(k, "join", *args) != code_proof(code_key("ABC-DEG", t), "join", *args)
    assert code_key("ABC-DEF", new_table_id()) != k
