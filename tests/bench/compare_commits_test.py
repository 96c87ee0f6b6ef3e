#!/usr/bin/python3
"""bench/compare_commits.py: how it reads a benchmark's figures and what each side runs."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import compare_commits  # noqa: E402


class FiguresTest(unittest.TestCase):
    def test_a_table_row_is_named_by_its_words_and_told_apart_by_column(self):
        found = compare_commits.figures("pruned, short (10-50 yd)   50  39.01  1,234.5  44%\n")
        self.assertEqual(found[("pruned, short (#-# yd)", 3)], 39.01)
        self.assertEqual(found[("pruned, short (#-# yd)", 4)], 1234.5)
        self.assertEqual(found[("pruned, short (#-# yd)", 5)], 44.0)

    def test_json_lines_are_flattened_into_key_paths(self):
        found = compare_commits.figures('{"a": {"b": 3}, "c": [{"d": 1.5}], "ok": true}\n')
        self.assertEqual(found, {("a.b", 0): 3.0, ("c[0].d", 0): 1.5})

    def test_lines_without_numbers_are_not_figures(self):
        self.assertEqual(compare_commits.figures("search, trips  asked  median ms\n"), {})


class SideCommandTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.trees = {"old": os.path.join(self.dir.name, "old"),
                      "new": os.path.join(self.dir.name, "new")}
        for tree in self.trees.values():
            os.makedirs(os.path.join(tree, "bench"))
        open(os.path.join(self.trees["new"], "bench", "t.py"), "w").close()
        self.inputs = {side: {"world": f"/w/{side}"} for side in self.trees}

    def tearDown(self):
        self.dir.cleanup()

    def command(self, bench, side):
        return compare_commits.side_command(bench, side, self.trees, self.inputs)

    def test_each_side_runs_its_own_tree_with_its_own_inputs(self):
        open(os.path.join(self.trees["old"], "bench", "t.py"), "w").close()
        bench = {"name": "t", "run": "bench/t.py {world}", "run_new": "bench/t.py {world} --x"}
        self.assertIn("bench/t.py /w/old", self.command(bench, "old"))
        self.assertNotIn("--x", self.command(bench, "old"))
        self.assertIn("bench/t.py /w/new --x", self.command(bench, "new"))
        self.assertIn(os.path.join(self.trees["old"], "build"), self.command(bench, "old"))

    def test_a_benchmark_the_old_commit_lacks_is_not_run_there(self):
        self.assertIsNone(self.command({"name": "t", "run": "bench/t.py {world}"}, "old"))
        self.assertIsNotNone(self.command({"name": "t", "run": "bench/t.py {world}"}, "new"))


class StagedTest(unittest.TestCase):
    def test_a_folder_is_there_only_once_whole(self):
        with tempfile.TemporaryDirectory() as work:
            final = os.path.join(work, "inputs", "world")
            with self.assertRaises(RuntimeError):
                with compare_commits.staged(final) as partial:
                    os.makedirs(partial)
                    raise RuntimeError("interrupted")
            self.assertFalse(os.path.exists(final))
            with compare_commits.staged(final) as partial:
                os.makedirs(partial)
                open(os.path.join(partial, "grid"), "w").close()
            self.assertTrue(os.path.exists(os.path.join(final, "grid")))
            self.assertFalse(os.path.exists(final + ".partial"))


class ArgumentsTest(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compare_commits.py"),
                               *args], capture_output=True, text=True)

    def test_the_old_commit_is_required_and_unknown_benchmarks_are_named(self):
        missing = self.run_script()
        self.assertEqual(missing.returncode, 2)
        self.assertIn("--old", missing.stderr)
        unknown = self.run_script("--old", "HEAD", "--only", "nonesuch")
        self.assertEqual(unknown.returncode, 2)
        self.assertIn("--only", unknown.stderr)
        self.assertIn("nonesuch", unknown.stderr)

    def test_list_names_every_benchmark(self):
        listed = self.run_script("--list")
        self.assertEqual(listed.returncode, 0)
        for bench in compare_commits.BENCHMARKS:
            self.assertIn(bench["name"] + ":", listed.stdout)


if __name__ == "__main__":
    unittest.main()
