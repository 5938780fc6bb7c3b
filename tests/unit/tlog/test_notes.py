"""Signed notes, checkpoints and cosignatures (service/tlog/notes.py) against the signed-note
reference vector of Go's golang.org/x/mod/sumdb/note, and against the independent checker
a referee runs (docs/verify_log.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from service.tlog.notes import COSIGNATURE, Checkpoint, Note, NoteError, Signer, Verifier, open_checkpoint

spec = importlib.util.spec_from_file_location("verify_log", Path(__file__).parents[3] / "docs" / "verify_log.py")
assert spec is not None and spec.loader is not None
verify_log = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_log)

# The example of Go's sumdb/note package: its signer key, verifier key, text and signed note.
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_LINE = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"


def test_a_note_is_signed_byte_for_byte_as_gos_reference() -> None:
    signer = Signer.parse(GO_SKEY)
    assert str(signer.verifier) == GO_VKEY
    assert signer.private_text() == GO_SKEY
    assert signer.signature_line(GO_TEXT) == GO_LINE
    assert Note.parse(GO_TEXT + "\n" + GO_LINE).signed_by(Verifier.parse(GO_VKEY))
    assert verify_log.open_note(GO_TEXT + "\n" + GO_LINE, GO_VKEY) == GO_TEXT


def test_a_changed_text_or_signature_is_refused() -> None:
    with pytest.raises(NoteError, match="does not verify"):
        Note.parse(GO_TEXT.replace("answer", "Answer") + "\n" + GO_LINE).signed_by(Verifier.parse(GO_VKEY))
    with pytest.raises(verify_log.VerifyError):
        verify_log.open_note(GO_TEXT.replace("answer", "Answer") + "\n" + GO_LINE, GO_VKEY)
    other = Signer.generate("PeterNeumann")
    assert not Note.parse(GO_TEXT + "\n" + other.signature_line(GO_TEXT)).signed_by(Verifier.parse(GO_VKEY))


def test_a_checkpoint_round_trips_and_is_opened_only_with_its_logs_key() -> None:
    log = Signer.generate("example.test/log")
    checkpoint = Checkpoint("example.test/log", 12345, bytes(range(32)))
    note = checkpoint.text + "\n" + log.signature_line(checkpoint.text)
    assert open_checkpoint(note, log.verifier)[0] == checkpoint
    assert verify_log.parse_checkpoint(verify_log.open_note(note, str(log.verifier))) == ("example.test/log", 12345, bytes(range(32)))
    with pytest.raises(NoteError, match="no signature"):
        open_checkpoint(note, Signer.generate("example.test/log").verifier)
    impostor = Signer.generate("elsewhere.test/log")
    with pytest.raises(NoteError, match="origin"):
        open_checkpoint(checkpoint.text + "\n" + impostor.signature_line(checkpoint.text), impostor.verifier)


def test_a_witness_cosignature_verifies_here_and_in_the_referees_checker() -> None:
    log, witness = Signer.generate("example.test/log"), Signer.generate("witness.test/w1", COSIGNATURE)
    checkpoint = Checkpoint("example.test/log", 7, bytes(32))
    note = checkpoint.text + "\n" + log.signature_line(checkpoint.text) + witness.cosignature_line(checkpoint.text, 1_700_000_000)
    assert Note.parse(note).cosigned_by(witness.verifier) == 1_700_000_000
    assert verify_log.cosigned_at(note, str(witness.verifier)) == 1_700_000_000
    assert str(witness.verifier).split("+")[2].startswith("B")  # type byte 0x04
    # A cosignature over another checkpoint's text does not carry over.
    moved = Checkpoint("example.test/log", 8, bytes(32))
    forged = moved.text + "\n" + log.signature_line(moved.text) + witness.cosignature_line(checkpoint.text, 1_700_000_000)
    with pytest.raises(NoteError):
        Note.parse(forged).cosigned_by(witness.verifier)
    with pytest.raises(verify_log.VerifyError):
        verify_log.cosigned_at(forged, str(witness.verifier))


@pytest.mark.parametrize("text", ["", "PeterNeumann", "PeterNeumann+c74f20a3", "Peter Neumann+c74f20a3+ARpc",
                                  GO_VKEY.replace("c74f20a3", "c74f20a4"), GO_VKEY + "!", "a+00000000+AQ=="])
def test_a_malformed_verifier_key_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(NoteError):
        Verifier.parse(text)


@pytest.mark.parametrize("note", ["no blank line\n", "text\n\nnot a signature\n", "text\n\n— name !!!\n",
                                  "text\n\n— name AAAA\n", "te\x07xt\n\n— n AAAAAAAA\n"])
def test_a_malformed_note_is_refused(note: str) -> None:
    with pytest.raises(NoteError):
        Note.parse(note)
