"""The HTML report from Python: hwfit.report_html (assess in HTML) is the document of the
CLI's `hwfit assess --html`, well-formed, self-contained, with every finding of
hwfit.assess; it displays in notebooks inside its own frame; bad input raises HwfitError."""
import html
import os
import unittest
import xml.etree.ElementTree as ET

import hwfit
from _needs import needs

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("HWFIT_SOURCE_DIR") or os.path.join(HERE, "..", "..", "..")
TEST_DATA = os.environ.get("HWFIT_TEST_DATA") or os.path.join(SOURCE, "tests", "data")
MODELS = os.path.join(TEST_DATA, "models")
SEED = os.path.join(SOURCE, "examples", "specs", "seed-server.json")
WORKLOADS = ["serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b"]


@needs("assess")
class Report(unittest.TestCase):
    def test_report_holds_every_finding_and_the_charts(self):
        doc = hwfit.report_html(node=SEED, workload=WORKLOADS, models_dir=MODELS)
        self.assertIsInstance(doc, hwfit.Html)
        root = ET.fromstring(doc.encode("utf-8"))  # well-formed as XML too
        self.assertEqual(root.tag, "html")
        result = hwfit.assess(node=SEED, workload=WORKLOADS, models_dir=MODELS)
        items = root.findall(".//li[@class]")
        findings = [li for li in items if "finding" in li.get("class")]
        self.assertEqual(len(findings), len(result["findings"]))
        texts = ["".join(li.itertext()) for li in findings]
        for f, text in zip(result["findings"], texts):
            self.assertIn(f["text"], text)
            self.assertIn(f["rule"], text)
        self.assertEqual(len(root.findall(".//{http://www.w3.org/2000/svg}svg")), 4)
        self.assertNotIn("<script", doc)
        self.assertEqual(hwfit.run("assess", "html", node=SEED, workload=WORKLOADS,
                                   models_dir=MODELS), doc)

    def test_markdown(self):
        md = hwfit.run("assess", "markdown", node=SEED)
        self.assertTrue(md.startswith("# Assessment of seed-server"))

    def test_notebook_display_is_isolated(self):
        doc = hwfit.report_html(node=SEED)
        frame = doc._repr_html_()
        self.assertTrue(frame.startswith("<iframe"))
        self.assertIn("srcdoc=\"&lt;!DOCTYPE html&gt;", frame)
        self.assertEqual(html.unescape(frame.split('srcdoc="', 1)[1].rsplit('"', 1)[0]), doc)

    def test_bad_input_raises(self):
        for call in (lambda: hwfit.report_html(node=os.path.join(TEST_DATA, "nope.json")),
                     lambda: hwfit.report_html(node=SEED, workload="serve:no-such-model",
                                               models_dir=MODELS),
                     lambda: hwfit.report_html(node=SEED, allreduce_size="0.5B")):
            with self.assertRaises(hwfit.HwfitError):
                call()


if __name__ == "__main__":
    unittest.main()
