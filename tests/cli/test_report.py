"""`hwfit assess --html FILE`: the report is written, well-formed, the same bytes as
hwfit.report_html, and the printed output (table, Markdown, JSON) does not change; a file
that cannot be written is a usage error (exit 2, one line on stderr, nothing on stdout)."""
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from clitest import CliCase, SOURCE_DIR, TEST_DATA, run

sys.path.insert(0, os.path.join(SOURCE_DIR, "bindings", "python"))
import hwfit  # noqa: E402

SEED = os.path.join(SOURCE_DIR, "examples", "specs", "seed-server.json")
MODELS = os.path.join(TEST_DATA, "models")
ARGS = ["assess", "--node", SEED, "--models-dir", MODELS, "--workload",
        "serve:llama-3.1-70b:bf16:128K", "--workload", "qlora:llama-3.1-70b"]


class AssessHtml(CliCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_report_is_written_and_matches_python(self):
        path = os.path.join(self.dir.name, "report.html")
        self.assertEqual(self.ok_json(*ARGS), self.ok_json(*ARGS, "--html", path))
        with open(path, encoding="utf-8") as f:
            doc = f.read()
        root = ET.fromstring(doc.encode("utf-8"))
        self.assertEqual(root.tag, "html")
        if hasattr(hwfit, "report_html"):  # assess in HTML, once assess is a request
            self.assertEqual(doc, hwfit.report_html(
                node=SEED, workload=["serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b"],
                models_dir=MODELS))
        rc, out, err = run(*ARGS, "--markdown", "--html", path)
        self.assertEqual((rc, err), (0, ""))
        self.assertTrue(out.startswith("# Assessment of seed-server"))
        self.ok_table(*ARGS, "--html", path)

    def test_unwritable_file_is_a_usage_error(self):
        bad = os.path.join(os.sep, "nonexistent-dir-hwfit", "report.html")
        err = self.bad(*ARGS, "--html", bad, mentions="--html")
        self.assertIn("cannot write", err)
        self.bad("assess", "--node", SEED, "--html", self.dir.name, mentions="cannot write")


if __name__ == "__main__":
    unittest.main()
