"""The hwfit command: version, help, dispatch, shared option parsing."""
import json
import unittest

from clitest import CliCase, run


class TestMain(CliCase):

    def test_version(self):
        rc, out, err = run("--version")
        self.assertEqual(rc, 0)
        self.assertRegex(out.strip(), r"^hwfit \d+\.\d+\.\d+$")

    def test_help_lists_subcommands(self):
        rc, out, _ = run("--help")
        self.assertEqual(rc, 0)
        self.assertIn("units", out)

    def test_every_subcommand_has_help(self):
        rc, out, _ = run("--help")
        names = [l.split()[0] for l in out.split("subcommands:")[1].splitlines()
                 if l.startswith("  ")]
        self.assertTrue(names)
        for name in names:
            rc, text, err = run(name, "--help")
            self.assertEqual(rc, 0, f"{name} --help: {err}")
            self.assertIn(f"usage: hwfit {name}", text)

    def test_no_or_unknown_subcommand(self):
        rc, out, err = run()
        self.assertEqual((rc, out), (2, ""))
        self.bad("frobnicate", mentions="frobnicate")


class TestUnits(CliCase):

    def test_json(self):
        d = self.ok_json("units", "15.36TB")
        self.assertEqual(d["value"], 15.36e12)
        self.assertEqual(d["text"], "15.36 TB (13.97 TiB)")
        d = self.ok_json("units", "400Gb/s", "--unit", "bytes/s")
        self.assertEqual(d["value"], 50e9)
        d = self.ok_json("units", "--unit=watts", "3.2kW")
        self.assertEqual(d["value"], 3200)

    def test_table(self):
        out = self.ok_table("units", "96GiB")
        self.assertIn("103.1 GB (96 GiB)", out)

    def test_bad_input(self):
        self.bad("units", "12parsecs", mentions="12parsecs")
        self.bad("units", "1GB", "--unit", "furlongs", mentions="--unit")
        self.bad("units", "1GB", "--bogus", mentions="--bogus")
        self.bad("units", "1GB", "--unit", mentions="--unit")
        self.bad("units", mentions="--value: is required")
        self.bad("units", "1", "2")


class TestFinetuneInputs(CliCase):

    def test_qlora_inputs_kept(self):
        """bitsandbytes QLoRA keeps each 4-bit linear's input: with LoRA on q and v the MLP
        input and the down projection's input (h + F per token and layer, 2 bytes)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        # without recomputation every layer keeps them; with full recomputation (the LoRA
        # and QLoRA default) only the layer being recomputed does
        args = ("memory", "--model", cfg, "--mode", "qlora", "--lora-targets", "q,v",
                "--context", "1000", "--no-dropout", "--recompute", "none")
        full = ("memory", "--model", cfg, "--mode", "qlora", "--lora-targets", "q,v",
                "--context", "1000", "--no-dropout")
        self.assertEqual(self.ok_json(*full, "--qlora-inputs-kept")["activation_bytes"]
                         - self.ok_json(*full)["activation_bytes"], 1000 * 2 * (4096 + 14336))
        off = self.ok_json(*args)
        on = self.ok_json(*args, "--qlora-inputs-kept")
        self.assertIs(on["assumptions"]["qlora_inputs_kept"], True)
        self.assertIs(off["assumptions"]["qlora_inputs_kept"], False)
        self.assertEqual(on["activation_bytes"] - off["activation_bytes"],
                         32 * 1000 * 2 * (4096 + 14336))
        # the Trainer's QLoRA (bitsandbytes) keeps them; torchtune's torchao NF4 does not
        self.assertIs(self.ok_json(*args, "--framework", "hf-trainer+peft")
                      ["assumptions"]["qlora_inputs_kept"], True)
        self.assertIs(self.ok_json(*args, "--framework", "torchtune")
                      ["assumptions"]["qlora_inputs_kept"], False)
        self.assertIn("4-bit linears keep their inputs",
                      self.ok_table(*args, "--qlora-inputs-kept"))

    def test_untied_head(self):
        """LitGPT's tied heads are a matrix of their own: Llama 3.2 1B's head, bf16."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.2-1b.config.json")
        tied = self.ok_json("memory", "--config", cfg, "--mode", "lora")
        untied = self.ok_json("memory", "--config", cfg, "--mode", "lora", "--untied-head")
        self.assertEqual(untied["weights_bytes"] - tied["weights_bytes"], 128256 * 2048 * 2)
        self.assertIs(untied["assumptions"]["untied_head"], True)
        self.assertIs(tied["assumptions"]["untied_head"], False)
        lit = self.ok_json("memory", "--config", cfg, "--mode", "lora", "--framework", "litgpt")
        self.assertIs(lit["assumptions"]["untied_head"], True)

    def test_softcap_eager(self):
        """Gemma 2 soft-caps its attention logits; LitGPT then runs eager attention and keeps
        the tanh output, the fp32 softmax and its bf16 copy: 42 layers x 16 heads x s^2 x 8
        bytes at s = 512 without recomputation, and one layer's backward 6 bytes a score more
        (the bf16 softmax's fp32 gradients)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "gemma-2-9b-it.config.json")
        args = ("memory", "--model", cfg, "--mode", "lora", "--context", "512",
                "--recompute", "none")
        flash = self.ok_json(*args)
        eager = self.ok_json(*args, "--softcap-eager")
        self.assertEqual(eager["activation_bytes"] - flash["activation_bytes"],
                         42 * 16 * 512 * 512 * 8 + 16 * 512 * 512 * 6)
        self.assertIs(eager["assumptions"]["softcap_eager"], True)
        self.assertIs(flash["assumptions"]["softcap_eager"], False)
        lit = self.ok_json(*args, "--framework", "litgpt")
        self.assertIs(lit["assumptions"]["softcap_eager"], True)
        self.assertEqual(lit["activation_bytes"] - self.ok_json(
            *args, "--framework", "litgpt", "--no-softcap-eager")["activation_bytes"],
            42 * 16 * 512 * 512 * 8 + 16 * 512 * 512 * 6)

    def test_eager_kernels_and_the_previous_graph(self):
        """Round 3 of issue #16: --gated-act-kept (an eager SwiGLU keeps act(gate): F per
        token and layer), --kv-repeated (GQA's K and V repeated to every head),
        --dequant-transient (the largest 4-bit matrix dequantized, in forward and backward)
        and --previous-graph (the last micro-batch's logits in forward and step), on
        Llama 3.1 8B at 512 tokens without recomputation; LitGPT's profile sets all four."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
                "--context", "512", "--recompute", "none")
        base = self.ok_json(*args)
        act = self.ok_json(*args, "--gated-act-kept")
        self.assertEqual(act["activation_bytes"] - base["activation_bytes"], 32 * 512 * 14336 * 2)
        kv = self.ok_json(*args, "--kv-repeated")
        self.assertEqual(kv["activation_bytes"] - base["activation_bytes"],
                         32 * 512 * 24 * 128 * 2 * 2)
        dq = self.ok_json(*args, "--dequant-transient")
        self.assertEqual(dq["dequant_bytes"], 14336 * 4096 * 2)
        self.assertEqual(dq["forward_bytes"] - base["forward_bytes"], 14336 * 4096 * 2)
        self.assertEqual(dq["step_bytes"], base["step_bytes"])
        pg = self.ok_json(*args, "--previous-graph")
        self.assertEqual(pg["carried_bytes"], 512 * 128256 * 2)
        self.assertEqual(pg["backward_bytes"], base["backward_bytes"])
        self.assertEqual(base["dequant_bytes"], 0)
        self.assertEqual(base["carried_bytes"], 0)
        lit = self.ok_json(*args, "--framework", "litgpt")["assumptions"]
        for k in ("gated_act_kept", "kv_repeated", "dequant_transient", "previous_graph"):
            self.assertIs(lit[k], True, k)
            self.assertIs(base["assumptions"][k], False, k)
        off = self.ok_json(*args, "--framework", "litgpt", "--no-previous-graph")
        self.assertIs(off["assumptions"]["previous_graph"], False)
        self.assertEqual(off["carried_bytes"], 0)
        self.assertIn("previous graph", self.ok_table(*args, "--previous-graph"))
        # Megatron's logits beside their fp32 copy: 2 bytes a logit more than --loss fp32
        full = ("memory", "--config", cfg, "--mode", "full", "--context", "1024")
        self.assertEqual(self.ok_json(*full, "--loss", "fp32-copy")["loss_bytes"]
                         - self.ok_json(*full, "--loss", "fp32")["loss_bytes"], 1024 * 128256 * 2)
        # Unsloth's in-place loss (before Cut Cross Entropy): the bf16 logits whole and two
        # fp32 values a token over the head's input, where fp32 keeps 4(h + V).
        self.assertEqual(self.ok_json(*full, "--loss", "inplace")["loss_bytes"],
                         1024 * (4 * 4096 + 2 * 128256 + 8))
        # Unsloth's in-place loss after its cast to config.torch_dtype (before Cut Cross
        # Entropy, a run in another 16-bit format than the config's): the same loss, and a
        # second copy of the bf16 logits in the forward phase only.
        plain = self.ok_json(*full, "--loss", "inplace")
        cast = self.ok_json(*full, "--loss", "inplace-cast")
        self.assertEqual(cast["assumptions"]["loss"], "inplace-cast")
        self.assertEqual(cast["loss_bytes"], plain["loss_bytes"])
        self.assertEqual(cast["forward_bytes"] - plain["forward_bytes"], 1024 * 128256 * 2)
        self.assertEqual(cast["backward_bytes"], plain["backward_bytes"])
        # --kept-modules: a skip list's single layers (Unsloth's Dynamic 4-bit) stay bf16
        # in a QLoRA nf4-dq model: the down_proj (4096 x 14336) of the one layer named;
        # a module of every layer is refused.
        q = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4-dq")
        base = self.ok_json(*q)
        one = self.ok_json(*q, "--kept-modules", "lm_head,model.layers.1.mlp.down_proj")
        self.assertEqual(one["assumptions"]["kept_layers"], "down 1")
        self.assertEqual(base["assumptions"]["kept_layers"], "none")
        # 2 bytes a value against nf4-dq's 4.127 bits: 1.48 bytes a value more
        self.assertGreater(one["weights_bytes"] - base["weights_bytes"], 4096 * 14336 * 1.4)
        self.assertLess(one["weights_bytes"] - base["weights_bytes"], 4096 * 14336 * 1.5)
        self.bad(*q, "--kept-modules", "model.layers.*.mlp", mentions="kept-modules")
        # a layer the model does not have (Llama 3.1 8B: layers 0-31) is refused, not
        # counted; the last one is counted
        last = self.ok_json(*q, "--kept-modules", "model.layers.31.mlp.down_proj")
        self.assertEqual(last["assumptions"]["kept_layers"], "down 1")
        self.bad(*q, "--kept-modules", "model.layers.32.mlp.down_proj", mentions="0 to 31")
        # with plain weights there is nothing to keep: refused, not ignored
        self.bad("memory", "--config", cfg, "--mode", "lora", "--kept-modules",
                 "model.layers.1.mlp", mentions="kept_layers")
        # ms-swift's chunked loss under sequence parallelism (round 7 of issue #16): the
        # bf16 logits whole and a bf16 loss a token, plus one chunk's backward work,
        # 3 x 2 bytes x rows x V; --loss-chunk sets the rows (default 2048) and is refused
        # with another loss.
        chunked = self.ok_json(*full, "--loss", "chunked-inplace")
        self.assertEqual(chunked["loss_bytes"],
                         1024 * (4 * 4096 + 2 * 128256 + 2) + 3 * 2 * 1024 * 128256)
        self.assertEqual(chunked["assumptions"]["loss"], "chunked-inplace")
        self.assertEqual(chunked["assumptions"]["loss_chunk_tokens"], 2048)
        small = self.ok_json(*full, "--loss", "chunked-inplace", "--loss-chunk", "256")
        self.assertEqual(chunked["loss_bytes"] - small["loss_bytes"],
                         3 * 2 * (1024 - 256) * 128256)
        self.bad(*full, "--loss-chunk", "256", mentions="loss-chunk")
        self.bad(*full, "--loss", "chunked-inplace", "--loss-chunk", "0",
                 mentions="loss-chunk")

    def test_load_quantize_bytes_makes_a_load_phase(self):
        """Round 5 of issue #16: --load-quantize-bytes B holds the largest quantized matrix
        times B beside the weights while the model loads (torchao 0.1's to_nf4: 68 bytes an
        element); the load phase sets the peak when it is the largest. Llama 3.1 8B QLoRA
        with full recomputation at 512 tokens: the MLP's 14336 x 4096."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
                "--context", "512", "--recompute", "full")
        base = self.ok_json(*args)
        self.assertEqual(base["load_bytes"], base["weights_bytes"])
        self.assertNotEqual(base["peak_phase"], "load")
        q = self.ok_json(*args, "--load-quantize-bytes", "68")
        self.assertEqual(q["load_bytes"] - q["weights_bytes"], 14336 * 4096 * 68)
        self.assertEqual(q["peak_phase"], "load")
        self.assertEqual(q["peak_allocated_bytes"], q["load_bytes"])
        self.assertEqual(q["assumptions"]["load_quantize_bytes"], 68)
        self.assertEqual(self.ok_json(*args, "--framework", "torchtune")
                         ["assumptions"]["load_quantize_bytes"], 4)
        self.assertIn("model load", self.ok_table(*args, "--load-quantize-bytes", "68"))
        fit = self.ok_json("fit", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
                           "--context", "512", "--recompute", "full", "--capacity", "80GiB",
                           "--load-quantize-bytes", "68")
        self.assertEqual(fit["peak_phase"], "load")
        self.assertEqual(fit["peak_allocated_bytes"], q["load_bytes"])
        self.bad("memory", "--config", cfg, "--load-quantize-bytes", "4",
                 mentions="load-quantize-bytes")
        self.bad(*args, "--load-quantize-bytes", "2000", mentions="load-quantize-bytes")

    def test_lora_full_modules_train_copies_beside_the_originals(self):
        """Issue #16: --lora-full-modules (PEFT modules_to_save) keeps each named module and a
        trained copy. Llama 3.1 8B LoRA: the embedding and the head are 128,256 x 4,096 =
        525,336,576 parameters each; each copy weighs 2 bytes (bf16) and trains with a bf16
        gradient, an fp32 master copy and two fp32 moments (12 bytes). fit shards the copies'
        gradients and states as every trained parameter: ZeRO-2 over 4 cards, a quarter."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        vh = 128256 * 4096
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024")
        base = self.ok_json(*args)
        full = self.ok_json(*args, "--lora-full-modules", "embed_tokens,lm_head")
        self.assertEqual(full["weights_bytes"] - base["weights_bytes"], 2 * vh * 2)
        self.assertEqual(full["trainable_params"] - base["trainable_params"], 2 * vh)
        self.assertEqual(full["gradient_bytes"] - base["gradient_bytes"], 2 * vh * 2)
        self.assertEqual(full["optimizer_bytes"] - base["optimizer_bytes"], 2 * vh * 12)
        self.assertEqual(full["assumptions"]["lora_full_modules"], 3)
        norms = self.ok_json(*args, "--lora-full-modules", "norms")
        self.assertEqual(norms["trainable_params"] - base["trainable_params"],
                         32 * 2 * 4096 + 4096)
        trained = full["trainable_params"]
        fit = ("fit", "--config", cfg, "--mode", "lora", "--context", "1024", "--gpus", "4",
               "--dp", "4", "--zero", "2", "--capacity", "1024GiB")
        f = self.ok_json(*fit, "--lora-full-modules", "embed,head")
        self.assertEqual(f["breakdown"]["optimizer_bytes"], trained * 12 // 4)
        self.assertEqual(f["breakdown"]["gradient_bytes"], trained * 2 // 4)
        self.assertEqual(f["breakdown"]["weights_bytes"], full["weights_bytes"])
        self.bad("memory", "--config", cfg, "--mode", "full", "--lora-full-modules", "embed",
                 mentions="lora-full-modules")
        self.bad(*args, "--lora-full-modules", "embed,q_proj", mentions="lora-full-modules")

    def test_use_cache_and_outputs_kept_hold_the_outputs(self):
        """--use-cache (transformers' use_cache beside checkpointing applied outside the
        model) and --outputs-kept (the loop's outputs alive through backward, the step and
        the next forward): Llama 3.1 8B,
        1,024 tokens, full recomputation: the K/V of 32 layers, 2,048 values a token, bf16,
        134,217,728 bytes, and with the outputs kept the fp32 logits, 1,024 x 128,256 x 4;
        fit takes them too; inference refuses them."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--recompute", "full", "--loss", "upcast")
        built, logits = 2048 * 1024 * 2 * 32, 1024 * 128256 * 4
        base = self.ok_json(*args)
        cache = self.ok_json(*args, "--use-cache")
        self.assertEqual(cache["outputs_bytes"], built)
        self.assertEqual(cache["forward_bytes"] - base["forward_bytes"], built)
        self.assertIs(cache["assumptions"]["use_cache"], True)
        kept = self.ok_json(*args, "--use-cache", "--outputs-kept")
        self.assertEqual(kept["outputs_bytes"], built + logits)
        self.assertIs(kept["assumptions"]["outputs_kept"], True)
        self.assertGreaterEqual(kept["backward_bytes"], base["backward_bytes"] + built)
        # the previous micro-batch's outputs: in the next forward and in the step
        self.assertEqual(kept["forward_bytes"] - base["forward_bytes"], 2 * built + logits)
        self.assertEqual(kept["step_bytes"] - base["step_bytes"], built + logits)
        # the loss computed after the call (torchtune's 2024 loop): the previous outputs meet
        # this call's logits and cache, below the upcast loss: the forward is its own
        after = self.ok_json(*args, "--use-cache", "--outputs-kept", "--loss-after-call")
        self.assertEqual(after["forward_bytes"], cache["forward_bytes"])
        self.assertEqual(after["step_bytes"], kept["step_bytes"])
        self.assertIs(after["assumptions"]["loss_after_call"], True)
        self.bad(*args, "--loss-after-call", mentions="loss-after-call")
        fit = self.ok_json("fit", "--config", cfg, "--mode", "lora", "--gpu", "h100-sxm",
                           "--gpus", "2", "--context", "1024", "--recompute", "full",
                           "--use-cache", "--outputs-kept")
        self.assertIs(fit["assumptions"]["outputs_kept"], True)
        self.bad("memory", "--config", cfg, "--use-cache", mentions="use-cache")

    def test_probs_kept_stay_through_forward_backward_and_step(self):
        """--probs-kept (a metric's softmax of the logits kept by the loop, prime-rl's SFT
        trainer at f037882c8): Llama 3.1 8B LoRA, 1,024 tokens, loss upcast-freed: the fp32
        probabilities, 1,024 x 128,256 x 4 bytes, in the forward, backward and step; fit
        takes it; refused beside --outputs-kept and in inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--recompute", "full", "--loss", "upcast-freed")
        probs = 1024 * 128256 * 4
        base = self.ok_json(*args)
        kept = self.ok_json(*args, "--probs-kept")
        self.assertIs(kept["assumptions"]["probs_kept"], True)
        self.assertIs(base["assumptions"]["probs_kept"], False)
        self.assertEqual(kept["outputs_bytes"], probs)
        for phase in ("forward_bytes", "backward_bytes", "step_bytes"):
            self.assertEqual(kept[phase] - base[phase], probs)
        fit = self.ok_json("fit", "--config", cfg, "--mode", "lora", "--gpu", "h100-sxm",
                           "--gpus", "2", "--context", "1024", "--recompute", "full",
                           "--probs-kept")
        self.assertIs(fit["assumptions"]["probs_kept"], True)
        self.bad(*args, "--probs-kept", "--outputs-kept", mentions="probs-kept")
        self.bad("memory", "--config", cfg, "--probs-kept", mentions="probs-kept")

    def test_loss_parallel_adds_four_bytes_a_logit_under_tp(self):
        """--loss-parallel (PyTorch's DTensor loss_parallel over vocabulary-sharded logits;
        the torchtitan profile sets it): Llama 3.1 8B full, 1,024 tokens, --tensor-parallel
        2, loss upcast-freed: 1,024 x 128,256 x 4 / 2 bytes more in the loss; nothing at
        tensor parallel 1; --no-loss-parallel takes the profile's back; inference refuses
        it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024",
                "--recompute", "full", "--loss", "upcast-freed")
        base = self.ok_json(*args, "--tensor-parallel", "2")
        lp = self.ok_json(*args, "--tensor-parallel", "2", "--loss-parallel")
        self.assertIs(lp["assumptions"]["loss_parallel"], True)
        self.assertIs(base["assumptions"]["loss_parallel"], False)
        self.assertEqual(lp["activation_bytes"] - base["activation_bytes"],
                         1024 * 128256 * 4 // 2)
        self.assertEqual(self.ok_json(*args, "--loss-parallel")["activation_bytes"],
                         self.ok_json(*args)["activation_bytes"])
        titan = self.ok_json(*args, "--tensor-parallel", "2", "--framework", "torchtitan")
        self.assertIs(titan["assumptions"]["loss_parallel"], True)
        off = self.ok_json(*args, "--tensor-parallel", "2", "--framework", "torchtitan",
                           "--no-loss-parallel")
        self.assertIs(off["assumptions"]["loss_parallel"], False)
        self.bad("memory", "--config", cfg, "--loss-parallel", mentions="loss-parallel")

    def test_whole_masks_stay_through_forward_backward_and_step(self):
        """--whole-masks (Unsloth 2024.7-2024.8 on Gemma 2 without flash-attn softcapping:
        the sliding-window and the global causal mask built once at max_position_embeddings
        8192 in the activations' format and kept): Gemma 2 2B QLoRA, 2 x 8192^2 x 2 bytes
        with the activations and in every training phase; fit takes it; refused in
        inference and above 16."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "gemma-2-2b-it.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4-dq",
                "--context", "640", "--micro-batch", "2", "--batch", "2",
                "--recompute", "full")
        masks = 2 * 8192 * 8192 * 2
        base = self.ok_json(*args)
        kept = self.ok_json(*args, "--whole-masks", "2")
        self.assertEqual(kept["assumptions"]["whole_masks"], 2)
        self.assertEqual(base["assumptions"]["whole_masks"], 0)
        self.assertEqual(kept["masks_bytes"], masks)
        self.assertEqual(base["masks_bytes"], 0)
        self.assertEqual(kept["activation_bytes"] - base["activation_bytes"], masks)
        for phase in ("forward_bytes", "backward_bytes", "step_bytes"):
            self.assertEqual(kept[phase] - base[phase], masks)
        fargs = ("fit", "--config", cfg, "--mode", "qlora", "--weights", "nf4-dq",
                 "--gpu", "t4", "--gpus", "1", "--context", "640", "--micro-batch", "2",
                 "--batch", "2", "--recompute", "full")
        fbase = self.ok_json(*fargs)
        fit = self.ok_json(*fargs, "--whole-masks", "2")
        self.assertEqual(fit["assumptions"]["whole_masks"], 2)
        self.assertGreater(fit["peak_allocated_bytes"], fbase["peak_allocated_bytes"])
        self.bad("memory", "--config", cfg, "--whole-masks", "2", mentions="whole-masks")
        self.bad(*args, "--whole-masks", "17", mentions="whole-masks")

    def test_sink_mask_builds_in_the_forward(self):
        """--sink-mask-bytes (Unsloth 2025.8.10-2025.9.8 on gpt-oss: flex attention with the
        sink, its block mask built from the dense s x (s + 1) mask): gpt-oss-20b QLoRA at
        32,768 tokens, 10 bytes a pair in the forward beside the fixed part; the unsloth
        profile sets it for those releases only (on any model: without sinks it counts
        nothing); given for a model without sinks, in inference or above 64: refused."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "gpt-oss-20b.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4-dq",
                "--context", "32768", "--recompute", "full", "--loss", "fused")
        base = self.ok_json(*args)
        built = self.ok_json(*args, "--sink-mask-bytes", "10")
        self.assertEqual(base["assumptions"]["sink_mask_bytes"], 0)
        self.assertEqual(built["assumptions"]["sink_mask_bytes"], 10)
        self.assertGreaterEqual(built["forward_bytes"],
                                base["weights_bytes"] + 10 * 32768 * 32769)
        self.assertEqual(built["backward_bytes"], base["backward_bytes"])
        fargs = ("fit", "--config", cfg, "--mode", "qlora", "--weights", "nf4-dq",
                 "--gpu", "h100-sxm", "--gpus", "1", "--context", "32768",
                 "--recompute", "full", "--framework", "unsloth",
                 "--attention", "flash")  # before 2025.8.10 the profile runs gpt-oss eager
        for release, want in (("2025.8.9", 0), ("2025.8.10", 10), ("2025.9.9", 0)):
            fit = self.ok_json(*fargs, "--framework-release", release)
            self.assertEqual(fit["assumptions"]["sink_mask_bytes"], want)
        llama = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        largs = ("memory", "--config", llama, "--mode", "lora", "--context", "8192",
                 "--recompute", "full")
        self.bad(*largs, "--sink-mask-bytes", "10", mentions="sink-mask-bytes")
        self.assertEqual(self.ok_json(*largs)["forward_bytes"],
                         self.ok_json(*largs, "--sink-mask-bytes", "0")["forward_bytes"])
        # The profile's dated row on a model without sinks: set, counted as nothing.
        ul = self.ok_json(*largs, "--framework", "unsloth", "--framework-release", "2025.8.10")
        self.assertEqual(ul["assumptions"]["sink_mask_bytes"], 10)
        self.assertEqual(ul["forward_bytes"],
                         self.ok_json(*largs, "--framework", "unsloth", "--framework-release",
                                      "2025.8.10", "--sink-mask-bytes", "0")["forward_bytes"])
        self.bad("memory", "--config", cfg, "--sink-mask-bytes", "10",
                 mentions="sink-mask-bytes")
        self.bad(*args, "--sink-mask-bytes", "65", mentions="sink-mask-bytes")

    def test_attention_sdpa_runs_a_sink_model_eager(self):
        """--attention sdpa (transformers' default dispatch, the hf-trainer profiles' choice):
        gpt-oss (attention sinks, no SDPA in transformers) runs eager, Llama fused; memory
        and fit print the choice and its resolution; --attention flash or
        --no-flash-attention over the profile; both together, or in inference: refused."""
        import os
        from clitest import TEST_DATA
        oss = os.path.join(TEST_DATA, "models", "gpt-oss-20b.config.json")
        llama = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        base = ("memory", "--mode", "lora", "--context", "2048", "--recompute", "full",
                "--framework", "hf-trainer+peft")
        o = self.ok_json(*base, "--config", oss)
        self.assertEqual(o["assumptions"]["attention"], "sdpa")
        self.assertFalse(o["assumptions"]["flash_attention"])
        eager = self.ok_json(*base, "--config", oss, "--no-flash-attention")
        self.assertEqual(eager["assumptions"]["attention"], "eager")
        self.assertEqual(o["activation_bytes"], eager["activation_bytes"])
        flash = self.ok_json(*base, "--config", oss, "--attention", "flash")
        self.assertTrue(flash["assumptions"]["flash_attention"])
        self.assertLess(flash["activation_bytes"], o["activation_bytes"])
        l = self.ok_json(*base, "--config", llama)
        self.assertEqual(l["assumptions"]["attention"], "sdpa")
        self.assertTrue(l["assumptions"]["flash_attention"])
        self.assertEqual(l["activation_bytes"],
                         self.ok_json(*base, "--config", llama, "--attention", "flash")
                         ["activation_bytes"])
        # A profile that sends gpt-oss to a sink-aware kernel, and fit's card.
        self.assertTrue(self.ok_json("memory", "--config", oss, "--mode", "lora",
                                     "--framework", "axolotl")["assumptions"]["flash_attention"])
        fit = self.ok_json("fit", "--config", oss, "--mode", "lora", "--gpu", "h100-sxm",
                           "--gpus", "1", "--context", "2048", "--recompute", "full",
                           "--framework", "hf-trainer+peft")
        self.assertFalse(fit["assumptions"]["flash_attention"])
        self.bad(*base, "--config", oss, "--attention", "flash", "--no-flash-attention",
                 mentions="attention")
        self.bad(*base, "--config", oss, "--attention", "fused", mentions="attention")
        self.bad("memory", "--config", oss, "--attention", "eager", mentions="attention")

    def test_record_lengths_keep_segments_reserved(self):
        """--record-lengths (unpacked micro-batches of varying length): the earlier records'
        logits-sized segments stay reserved (records_bytes, in the reserved and stranded
        peaks, not the allocated); fit's card agrees; refused when not growing, at or above
        --context, malformed, or in inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "4096",
                "--recompute", "full", "--framework", "hf-trainer+peft")
        base = self.ok_json(*args)
        rec = self.ok_json(*args, "--record-lengths", "1000,3000")
        self.assertEqual(base["records_bytes"], 0)
        self.assertEqual(base["assumptions"]["record_lengths"], "none")
        self.assertEqual(rec["assumptions"]["record_lengths"], "1000,3000")
        self.assertGreater(rec["records_bytes"], 4 * 3000 * 128256)
        self.assertEqual(rec["peak_allocated_bytes"], base["peak_allocated_bytes"])
        self.assertEqual(rec["peak_reserved_bytes"],
                         base["peak_reserved_bytes"] + rec["records_bytes"])
        self.assertEqual(rec["stranded_bytes"], base["stranded_bytes"] + rec["records_bytes"])
        fargs = ("fit", "--config", cfg, "--mode", "lora", "--gpu", "h100-sxm", "--gpus", "1",
                 "--context", "4096", "--recompute", "full", "--framework", "hf-trainer+peft")
        self.assertEqual(self.ok_json(*fargs, "--record-lengths", "1000,3000")
                         ["peak_reserved_bytes"] - self.ok_json(*fargs)["peak_reserved_bytes"],
                         rec["records_bytes"])
        for bad in ("3000,1000", "5000", "1,,2", "0", "a", "1,2,3,4,5,6,7,8,9"):
            self.bad(*args, "--record-lengths", bad, mentions="record-lengths")
        self.bad("memory", "--config", cfg, "--record-lengths", "100", mentions="record-lengths")
        # The records from the data set's lengths: lognormal, mean 1000 and sd 600 tokens,
        # 2,000 samples in micro-batches of 1, cut at 4096: the quantiles 1 - e^-k.
        d = self.ok_json(*args, "--length-mean", "1000", "--length-sd", "600",
                         "--samples", "2000")
        recs = [int(x) for x in d["assumptions"]["record_lengths"].split(",")]
        self.assertEqual(recs, sorted(set(recs)))
        self.assertLess(recs[-1], 4096)
        self.assertGreater(d["records_bytes"], 0)
        self.assertEqual(d["records_bytes"],
                         self.ok_json(*args, "--record-lengths", ",".join(map(str, recs)))
                         ["records_bytes"])
        self.bad(*args, "--length-mean", "1000", mentions="length-mean")
        self.bad(*args, "--samples", "10", mentions="samples")
        self.bad(*args, "--length-mean", "1000", "--length-sd", "600", "--samples", "2000",
                 "--record-lengths", "100", mentions="record-lengths")
        self.bad(*args, "--length-mean", "0", "--length-sd", "600", "--samples", "2000",
                 mentions="length-mean")

    def test_logits_freed_ends_the_loss_before_the_rebuild(self):
        """--logits-freed (torchtune's `del logits` before backward, the torchtune profile's
        default): the loss's tensors go before the last layer is rebuilt, so a LoRA step's
        backward start is S + max(L, T) instead of S + L + T; memory and fit take it, the
        profile sets it, --no-logits-freed takes it back; inference refuses it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--recompute", "full", "--loss", "chunked", "--compile")
        base = self.ok_json(*args)
        freed = self.ok_json(*args, "--logits-freed")
        self.assertIs(freed["assumptions"]["logits_freed"], True)
        self.assertIs(base["assumptions"]["logits_freed"], False)
        self.assertLess(freed["backward_bytes"], base["backward_bytes"])
        self.assertEqual(freed["forward_bytes"], base["forward_bytes"])
        tt = ("fit", "--config", cfg, "--mode", "lora", "--gpus", "1", "--capacity", "80GiB",
              "--context", "1024", "--framework", "torchtune")
        on = self.ok_json(*tt)
        off = self.ok_json(*tt, "--no-logits-freed")
        self.assertIs(on["assumptions"]["logits_freed"], True)
        self.assertIs(off["assumptions"]["logits_freed"], False)
        self.assertLess(on["peak_allocated_bytes"], off["peak_allocated_bytes"])
        self.bad("memory", "--config", cfg, "--logits-freed", mentions="logits-freed")
        # without recomputation nothing is rebuilt: refused, not ignored (memory's full
        # default is none, LoRA's full)
        self.bad("memory", "--config", cfg, "--mode", "lora", "--recompute", "none",
                 "--logits-freed", mentions="recomputation")
        self.bad("memory", "--config", cfg, "--mode", "full", "--logits-freed",
                 mentions="recomputation")
        self.ok_json("memory", "--config", cfg, "--mode", "lora", "--recompute", "none",
                     "--no-logits-freed")
        # FlexAttention's structure is the op policy's: refused with another one
        self.bad("memory", "--config", cfg, "--mode", "full", "--flex-attention",
                 mentions="op policy")
        self.bad("memory", "--config", cfg, "--mode", "full", "--recompute", "selective",
                 "--flex-attention", mentions="op policy")
        self.ok_json("memory", "--config", cfg, "--mode", "full", "--recompute", "selective",
                     "--selective-policy", "op", "--flex-attention")

    def test_fit_and_plan_take_no_flash_attention_as_memory_does(self):
        """--no-flash-attention in fit and plan is memory's option (one row, one rule):
        serving Llama 3.1 8B at 8,192 tokens on one card, the 2,048-token prefill chunk's
        bf16 scores against the whole context (2,048 x 8,192 x 32 heads x 2 bytes) move
        memory's activations and fit's card alike; training says it among fit's
        assumptions, and plan's best layout moves as fit's."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        scores = 2048 * 8192 * 32 * 2
        mem = [self.ok_json("memory", "--config", cfg, "--context", "8192",
                            *f)["activation_bytes"] for f in ((), ("--no-flash-attention",))]
        self.assertEqual(mem[1] - mem[0], scores)
        serve = ("fit", "--config", cfg, "--capacity", "80GiB", "--context", "8192",
                 "--tp", "1", "--pp", "1")
        fit = [self.ok_json(*serve, *f)["breakdown"]["activation_bytes"]
               for f in ((), ("--no-flash-attention",))]
        self.assertEqual(fit[1] - fit[0], scores)
        train = ("--config", cfg, "--capacity", "80GiB", "--gpus", "1", "--mode", "lora",
                 "--context", "2048")
        f0 = self.ok_json("fit", *train)
        f1 = self.ok_json("fit", *train, "--no-flash-attention")
        self.assertIs(f0["assumptions"]["flash_attention"], True)
        self.assertIs(f1["assumptions"]["flash_attention"], False)
        p0 = self.ok_json("plan", *train, "--top", "1")["layouts"][0]["per_gpu_bytes"]
        p1 = self.ok_json("plan", *train, "--top", "1",
                          "--no-flash-attention")["layouts"][0]["per_gpu_bytes"]
        self.assertGreater(f1["per_gpu_bytes"], f0["per_gpu_bytes"])
        self.assertEqual(p1 - p0, f1["per_gpu_bytes"] - f0["per_gpu_bytes"])
        self.bad("fit", *train, "--no-flash-attention=yes", mentions="no-flash-attention")

    def test_eager_attention_backward_holds_the_score_gradients(self):
        """--no-flash-attention: Llama 3.1 8B LoRA, 1,024 tokens, full recomputation, no
        dropout: the rebuilt layer keeps its bf16 probabilities (2 bytes a score) and its
        softmax's backward holds the incoming and input gradients beside them (4 more):
        32 heads x 1,024^2 x 6 in the activations and at the backward's start; fit on one
        card gives memory's activations and backward."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("--config", cfg, "--mode", "lora", "--context", "1024", "--recompute", "full",
                "--no-dropout")
        flash = self.ok_json("memory", *args)
        eager = self.ok_json("memory", *args, "--no-flash-attention")
        for k in ("activation_bytes", "backward_bytes"):
            self.assertEqual(eager[k] - flash[k], 32 * 1024 * 1024 * 6, k)
        fit = self.ok_json("fit", *args, "--no-flash-attention", "--capacity", "80GiB",
                           "--gpus", "1")
        self.assertEqual(fit["breakdown"]["activation_bytes"], eager["activation_bytes"])
        self.assertEqual(fit["phases"]["backward_bytes"], eager["backward_bytes"])

    def test_softmax_fp32_keeps_the_eager_softmax_in_fp32(self):
        """--softmax-fp32 with --no-flash-attention (transformers' eager attention, softmax in
        fp32, then the 16-bit probabilities into the value matmul): Llama 3.1 8B LoRA, 1,024
        tokens, full recomputation, no dropout: the rebuilt layer keeps 4 bytes a score more,
        and its backward holds 8 - A = 6 beyond them against 2A = 4 in bf16: 32 heads x
        1,024 x 1,024 x 6; fit takes it too; refused with flash attention and in
        inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--recompute", "full", "--no-dropout", "--no-flash-attention")
        base = self.ok_json(*args)
        fp32 = self.ok_json(*args, "--softmax-fp32")
        self.assertEqual(fp32["activation_bytes"] - base["activation_bytes"], 32 * 1024 * 1024 * 6)
        self.assertIs(fp32["assumptions"]["softmax_fp32"], True)
        fit = ("fit", "--config", cfg, "--mode", "lora", "--capacity", "80GiB", "--gpus", "1",
               "--context", "1024", "--recompute", "full", "--no-dropout",
               "--no-flash-attention")
        f0, f1 = self.ok_json(*fit), self.ok_json(*fit, "--softmax-fp32")
        self.assertEqual(f1["breakdown"]["activation_bytes"] - f0["breakdown"]["activation_bytes"],
                         32 * 1024 * 1024 * 6)
        self.bad("memory", "--config", cfg, "--mode", "lora", "--softmax-fp32",
                 mentions="no-flash-attention")
        self.bad("memory", "--config", cfg, "--no-flash-attention", "--softmax-fp32",
                 mentions="softmax-fp32")

    def test_options_that_would_be_ignored_are_refused(self):
        """DeepSpeed's bucket size and overlap without its buffers (--zero-buckets or the
        deepspeed profile), the selective policy beside another recomputation (given, the
        profile's, or memory's default) and FSDP1's fp32 shards outside an fp32-upcast
        full fine-tune would change nothing: each is refused, and taken where it applies."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        fit = ("fit", "--config", cfg, "--gpu", "h100-sxm", "--gpus", "2", "--mode", "full")
        self.bad(*fit, "--zero", "2", "--reduce-bucket-size", "1000",
                 mentions="reduce-bucket-size")
        self.bad(*fit, "--zero", "2", "--overlap-comm", mentions="overlap-comm")
        self.ok_json(*fit, "--zero", "2", "--zero-buckets", "--overlap-comm")
        self.bad(*fit, "--recompute", "full", "--selective-policy", "op",
                 mentions="selective-policy")
        self.bad(*fit, "--framework", "torchtune", "--selective-policy", "op",
                 mentions="selective-policy")
        self.ok_json(*fit, "--recompute", "selective", "--selective-policy", "op")
        self.ok_json(*fit, "--selective-policy", "op")  # searched
        self.bad("memory", "--config", cfg, "--mode", "full", "--selective-policy", "op",
                 mentions="selective-policy")
        self.bad(*fit, "--fsdp-flat-upcast", mentions="fsdp-flat-upcast")
        self.ok_json(*fit, "--trained-fp32", "--fsdp-flat-upcast")

    def test_norm_upcast_kept_stores_the_fp32_input(self):
        """--norm-upcast-kept (an eager RMSNorm keeps its input's fp32 copy, and with a
        trained weight the normalized bf16 tensor): Llama 3.1 8B, 1,024 tokens, no
        recomputation: LoRA 2 bytes more a norm element (64 layer norms and the final one,
        4,096 wide), full 4; the torchtune profile sets it, --no-norm-upcast-kept undoes
        it; inference refuses it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--context", "1024", "--recompute", "none")
        elems = 1024 * 4096 * (32 * 2 + 1)
        for mode, extra in (("lora", 2), ("full", 4)):
            base = self.ok_json(*args, "--mode", mode)
            kept = self.ok_json(*args, "--mode", mode, "--norm-upcast-kept")
            self.assertEqual(kept["activation_bytes"] - base["activation_bytes"], extra * elems)
            self.assertIs(kept["assumptions"]["norm_upcast_kept"], True)
        tt = self.ok_json(*args, "--mode", "lora", "--framework", "torchtune")
        self.assertIs(tt["assumptions"]["norm_upcast_kept"], True)
        off = self.ok_json(*args, "--mode", "lora", "--framework", "torchtune",
                           "--no-norm-upcast-kept")
        self.assertIs(off["assumptions"]["norm_upcast_kept"], False)
        self.assertEqual(tt["activation_bytes"] - off["activation_bytes"], 2 * elems)
        self.bad("memory", "--config", cfg, "--norm-upcast-kept", mentions="norm-upcast-kept")

    def test_loss_liger(self):
        """--loss liger: fused in training, the whole logits and transformers' loss in the
        evaluation forward (Liger's lce_forward in eval mode). Llama 3.1 8B LoRA, 2,048
        tokens: training figures as --loss fused, the evaluation as --loss upcast-freed's."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "2048",
                "--recompute", "full", "--evaluation", "--eval-batch", "1", "--no-eval-replay")
        fused, liger, up = (self.ok_json(*args, "--loss", k)
                            for k in ("fused", "liger", "upcast-freed"))
        self.assertEqual(liger["backward_bytes"], fused["backward_bytes"])
        self.assertEqual(liger["eval_bytes"], up["eval_bytes"])
        self.assertGreater(liger["eval_bytes"], fused["eval_bytes"])
        self.assertEqual(liger["assumptions"]["loss"], "liger")
        self.bad(*args, "--loss", "liger", "--head-cast-kept", mentions="--head-cast-kept")

    def test_dequant_work_bytes(self):
        """--dequant-work-bytes: torchao NF4's eager dequantization holds 12 bytes an element
        beside its bf16 output (the torchtune profile's QLoRA choice); compiled, nothing.
        Llama 3.1 8B QLoRA, the MLP's 14336 x 4096."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--context", "512",
                "--dequant-transient")
        a, b = self.ok_json(*args), self.ok_json(*args, "--dequant-work-bytes", "12")
        self.assertEqual(b["dequant_bytes"] - a["dequant_bytes"], 12 * 14336 * 4096)
        self.assertEqual(b["assumptions"]["dequant_work_bytes"], 12)
        tt = self.ok_json("memory", "--config", cfg, "--mode", "qlora", "--framework", "torchtune")
        self.assertEqual(tt["assumptions"]["dequant_work_bytes"], 12)
        comp = self.ok_json(*args, "--dequant-work-bytes", "12", "--compile")
        self.assertEqual(comp["dequant_bytes"], a["dequant_bytes"])
        self.bad(*args, "--dequant-work-bytes", "1.5", mentions="--dequant-work-bytes")
        self.bad(*args, "--dequant-work-bytes", "65", mentions="--dequant-work-bytes")
        # without a dequantized weight there is nothing for it to refine: refused, a 0 too
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--dequant-work-bytes", "0",
                 mentions="--dequant-work-bytes")

    def test_norm_weight_fp32(self):
        """--norm-weight-fp32 (LitGPT's RMSNorm keeps its normalized tensor in fp32 for a
        trained weight): Llama 3.1 8B full, 1,024 tokens, no recomputation, 2 bytes more an
        element of 64 layer norms and the final one; the litgpt profile sets it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--context", "1024", "--recompute", "none",
                "--mode", "full", "--norm-upcast-kept")
        a, b = self.ok_json(*args), self.ok_json(*args, "--norm-weight-fp32")
        self.assertEqual(b["activation_bytes"] - a["activation_bytes"], 2 * 1024 * 4096 * 65)
        self.assertIs(b["assumptions"]["norm_weight_fp32"], True)
        lit = self.ok_json("memory", "--config", cfg, "--mode", "full", "--framework", "litgpt")
        self.assertIs(lit["assumptions"]["norm_weight_fp32"], True)
        self.bad("memory", "--config", cfg, "--norm-weight-fp32", mentions="norm-weight-fp32")
        self.bad("memory", "--config", cfg, "--mode", "full", "--norm-weight-fp32",
                 mentions="--norm-upcast-kept")

    def test_loss_upcast_freed_drops_the_16bit_logits(self):
        """--loss upcast-freed (torchtitan's del pred before backward): 2 bytes a logit less
        than upcast: Llama 3.1 8B, 1,024 tokens, 128,256 logits a token."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024")
        up = self.ok_json(*args, "--loss", "upcast")
        freed = self.ok_json(*args, "--loss", "upcast-freed")
        self.assertEqual(up["loss_bytes"] - freed["loss_bytes"], 2 * 1024 * 128256)
        self.assertEqual(freed["assumptions"]["loss"], "upcast-freed")

    def test_loss_compiled_keeps_the_16bit_logits_and_their_gradient(self):
        """--loss compiled (torchtitan's cross-entropy compiled on its own: the partitioner
        saves the bf16 logits, the backward writes their bf16 gradient): 4 bytes a logit
        against upcast-freed's 12: Llama 3.1 8B, 1,024 tokens, 128,256 logits a token."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024")
        freed = self.ok_json(*args, "--loss", "upcast-freed")
        comp = self.ok_json(*args, "--loss", "compiled")
        self.assertEqual(freed["loss_bytes"] - comp["loss_bytes"], 8 * 1024 * 128256)
        self.assertEqual(comp["assumptions"]["loss"], "compiled")
        self.bad("memory", "--config", cfg, "--mode", "full", "--loss", "compiled-chunked",
                 mentions="loss")

    def test_selective_policy_op_keeps_torchtitans_saved_outputs(self):
        """--selective-policy op (torchtitan's op-level checkpointing: the layer's input, the
        outputs of q, v, gate and down and of the attention kernel): Llama 3.1 8B, full,
        16,384 tokens, 63,616 bytes a token and layer against Korthikanti's 147,456 with
        flash attention; the torchtitan profile sets it, --selective-policy attention undoes
        it; LoRA and inference refuse it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "8192",
                "--micro-batch", "2", "--recompute", "selective")
        korth = self.ok_json(*args)
        op = self.ok_json(*args, "--selective-policy", "op")
        self.assertEqual(korth["activation_bytes"] - op["activation_bytes"],
                         32 * (147456 - 63616) * 16384)
        self.assertEqual(op["assumptions"]["selective"], "op")
        self.assertEqual(korth["assumptions"]["selective"], "attention")
        tt = self.ok_json("memory", "--config", cfg, "--mode", "full", "--framework",
                          "torchtitan")
        self.assertEqual(tt["assumptions"]["recompute"], "selective")
        self.assertEqual(tt["assumptions"]["selective"], "op")
        back = self.ok_json("memory", "--config", cfg, "--mode", "full", "--framework",
                            "torchtitan", "--selective-policy", "attention")
        self.assertEqual(back["assumptions"]["selective"], "attention")
        self.bad("memory", "--config", cfg, "--mode", "lora", "--recompute", "selective",
                 "--selective-policy", "op", mentions="selective")
        self.bad("memory", "--config", cfg, "--selective-policy", "op",
                 mentions="selective-policy")

    def test_selective_policy_op_on_moe_and_mla_layers(self):
        """--selective-policy op on DeepSeek-V2-Lite (MLA, 64 experts of 1408, 6 a token, 2
        shared, first layer dense): accepted (it was refused); under expert parallelism
        (fit --ep 8) each of the 26 MoE layers also keeps the two all-to-alls' outputs, 2 x 6
        x 2048 bf16 values a token; --flex-attention shows in the assumptions; compiled it
        is refused."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "deepseek-coder-v2-lite-base.config.json")
        mem = ("memory", "--config", cfg, "--mode", "full", "--context", "4096",
               "--recompute", "selective", "--selective-policy", "op")
        whole = self.ok_json(*mem)
        flex = self.ok_json(*mem, "--flex-attention")
        self.assertFalse(whole["assumptions"]["flex_attention"])
        self.assertTrue(flex["assumptions"]["flex_attention"])
        self.assertNotEqual(whole["activation_bytes"], flex["activation_bytes"])
        self.bad(*mem, "--compile", mentions="selective")
        fit = ("fit", "--config", cfg, "--capacity", "1024GiB", "--gpus", "8", "--mode",
               "full", "--context", "4096", "--micro-batch", "1", "--tp", "1", "--pp", "1",
               "--dp", "8", "--zero", "3", "--recompute", "selective", "--selective-policy",
               "op", "--flex-attention", "--framework", "torchtitan")
        one = self.ok_json(*fit, "--ep", "1")
        eight = self.ok_json(*fit, "--ep", "8")
        self.assertEqual(eight["breakdown"]["activation_bytes"]
                         - one["breakdown"]["activation_bytes"],
                         26 * 2 * 6 * 2048 * 2 * 4096)

    def test_ep_a2a_recomputed_drops_the_all_to_alls_from_the_stored_layers(self):
        """--ep-a2a-recomputed: torchtitan before c4e229115 (its all-to-all a Python
        autograd.Function outside the op policy's save list) recomputes the two expert
        all-to-alls' outputs with the layer: DeepSeek-V2-Lite on 8 cards, op policy, ep 8,
        stores what ep 1 stores (the 26 MoE layers' 2 x 6 x 2048 bf16 values a token out);
        the assumption shows; refused beside another policy and by memory."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "deepseek-coder-v2-lite-base.config.json")
        fit = ("fit", "--config", cfg, "--capacity", "1024GiB", "--gpus", "8", "--mode",
               "full", "--context", "4096", "--micro-batch", "1", "--tp", "1", "--pp", "1",
               "--dp", "8", "--zero", "3", "--recompute", "selective", "--selective-policy",
               "op", "--framework", "torchtitan")
        one = self.ok_json(*fit, "--ep", "1")
        saved = self.ok_json(*fit, "--ep", "8")
        re = self.ok_json(*fit, "--ep", "8", "--ep-a2a-recomputed")
        self.assertIs(saved["assumptions"]["ep_a2a_recomputed"], False)
        self.assertIs(re["assumptions"]["ep_a2a_recomputed"], True)
        self.assertEqual(saved["breakdown"]["activation_bytes"]
                         - re["breakdown"]["activation_bytes"],
                         26 * 2 * 6 * 2048 * 2 * 4096)
        self.assertEqual(re["breakdown"]["activation_bytes"],
                         one["breakdown"]["activation_bytes"])
        self.bad("fit", "--config", cfg, "--capacity", "1024GiB", "--gpus", "8", "--mode",
                 "full", "--ep", "8", "--recompute", "full", "--ep-a2a-recomputed",
                 mentions="op policy")
        self.bad("memory", "--config", cfg, "--mode", "full", "--recompute", "selective",
                 "--selective-policy", "op", "--ep-a2a-recomputed",
                 mentions="ep-a2a-recomputed")

    def test_lora_qkv_one_dropout_keeps_the_shared_dropout_once(self):
        """--lora-qkv-one-dropout: LitGPT's fused LoRAQKVLinear passes the normed hidden
        state through one dropout for the q, k and v adapters; the litgpt profile sets it.
        Llama 3.1 8B, LoRA on q and v, 1,024 tokens, no recomputation: one 4,096-wide bf16
        copy and its 1-byte mask a token and layer fewer than one per adapter (32 layers);
        refused outside LoRA."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        mem = ("memory", "--config", cfg, "--mode", "lora", "--lora-targets", "q,v",
               "--context", "1024", "--recompute", "none", "--framework", "litgpt")
        one = self.ok_json(*mem)
        each = self.ok_json(*mem, "--no-lora-qkv-one-dropout")
        self.assertIs(one["assumptions"]["lora_qkv_one_dropout"], True)
        self.assertIs(each["assumptions"]["lora_qkv_one_dropout"], False)
        self.assertEqual(each["activation_bytes"] - one["activation_bytes"],
                         32 * 1024 * 4096 * 3)
        self.assertEqual(each["trainable_params"], one["trainable_params"])
        peft = self.ok_json("memory", "--config", cfg, "--mode", "lora", "--lora-targets",
                            "q,v", "--framework", "hf-trainer+peft")
        self.assertIs(peft["assumptions"]["lora_qkv_one_dropout"], False)
        self.bad("memory", "--config", cfg, "--mode", "inference", "--lora-qkv-one-dropout",
                 mentions="lora-qkv-one-dropout")
        self.bad("memory", "--config", cfg, "--mode", "lora", "--lora-qkv-one-dropout",
                 mentions="--lora-dropout")
        self.ok_json("memory", "--config", cfg, "--mode", "lora", "--lora-dropout",
                     "--lora-qkv-one-dropout")

    def test_evaluation_phase_competes_for_the_peak(self):
        """--evaluation, --eval-batch, --eval-use-cache: the HF Trainer evaluates at
        per_device_eval_batch_size (8) with the config's use_cache on, a no-grad forward
        whose K/V cache of every layer is 2 x 32 x 8 x 2048 x 4096 x 2 bytes on Llama 2 7B
        (bf16); at micro-batch 1 with full recomputation it sets the peak (memory and fit's
        "phases"); the batch and cache are refused without --evaluation, all three outside
        training."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-2-7b.config.json")
        mem = ("memory", "--config", cfg, "--mode", "lora", "--context", "2048",
               "--micro-batch", "1", "--recompute", "full", "--framework", "hf-trainer+peft")
        base = self.ok_json(*mem)
        nocache = self.ok_json(*mem, "--evaluation")
        cache = self.ok_json(*mem, "--evaluation", "--eval-batch", "8", "--eval-use-cache")
        self.assertEqual(base["eval_bytes"], 0)
        self.assertIs(base["assumptions"]["evaluation"], False)
        self.assertIs(cache["assumptions"]["evaluation"], True)
        self.assertEqual(cache["assumptions"]["eval_batch"], 8)
        self.assertIs(cache["assumptions"]["eval_use_cache"], True)
        self.assertEqual(cache["eval_bytes"] - nocache["eval_bytes"],
                         2 * 32 * 8 * 2048 * 4096 * 2)
        self.assertEqual(cache["peak_phase"], "evaluation")
        self.assertEqual(cache["peak_allocated_bytes"], cache["eval_bytes"])
        self.assertEqual(cache["forward_bytes"], base["forward_bytes"])
        small = self.ok_json(*mem, "--evaluation", "--eval-batch", "1")
        self.assertNotEqual(small["peak_phase"], "evaluation")
        self.assertEqual(small["peak_bytes"], base["peak_bytes"])
        fit = self.ok_json("fit", "--config", cfg, "--capacity", "80GiB", "--gpus", "1",
                           "--mode", "lora", "--context", "2048", "--micro-batch", "1",
                           "--batch", "1", "--recompute", "full", "--framework",
                           "hf-trainer+peft", "--evaluation", "--eval-use-cache")
        self.assertEqual(fit["peak_phase"], "evaluation")
        self.assertEqual(fit["phases"]["eval_bytes"], fit["peak_allocated_bytes"])
        self.bad(*mem, "--eval-batch", "8", mentions="--evaluation")
        self.bad(*mem, "--eval-use-cache", mentions="--evaluation")
        self.bad(*mem, "--evaluation", "--eval-batch", "0", mentions="eval-batch")
        self.bad("memory", "--config", cfg, "--mode", "inference", "--evaluation",
                 mentions="evaluation")

    def test_evaluation_segments_replayed(self):
        """With --evaluation and PyTorch's default allocator the evaluation's reserve is the
        fixed tensors' with the fraction plus the caching allocator's segments for the
        evaluation forward, replayed: 34,191,966,208 bytes for the Hinglish Llama 2 7B QLoRA
        run (tests/data/tools/eval_replay.py); what they add over the plain reserve is
        stranded; --expandable-segments strands nothing and keeps the allocated bytes."""
        import math
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-2-7b.config.json")
        mem = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
               "--unquantized", "fp32", "--lora-dtype", "fp32", "--gradients", "fp32",
               "--optimizer-states", "fp32", "--no-master-weights", "--residual-fp32",
               "--context", "2048", "--micro-batch", "2", "--recompute", "full",
               "--lora-rank", "64", "--lora-targets", "q,k,v,o", "--evaluation",
               "--eval-batch", "8", "--eval-use-cache", "--framework", "hf-trainer+peft")
        r = self.ok_json(*mem)
        self.assertEqual(r["peak_phase"], "evaluation")
        fixed = r["weights_bytes"] + r["optimizer_bytes"] + r["kv_bytes"]
        frag = r["assumptions"]["fragmentation"]
        self.assertEqual(r["peak_reserved_bytes"],
                         fixed + math.ceil(fixed * frag) + 34191966208)
        self.assertGreater(r["stranded_bytes"], 0)
        # Mistral 7B with LoRA on every linear: 17,339,252,736 bytes of segments, as the
        # twin replays all 32 layers (the library counts the layers after the table
        # repeats its state, exact by construction: the same figure).
        mis = list(mem)
        mis[2] = os.path.join(TEST_DATA, "models", "mistral-7b-v0.1.config.json")
        mis[mis.index("q,k,v,o")] = "all"
        w = self.ok_json(*mis)
        fixed_w = w["weights_bytes"] + w["optimizer_bytes"] + w["kv_bytes"]
        self.assertEqual(w["peak_reserved_bytes"],
                         fixed_w + math.ceil(fixed_w * frag) + 17339252736)
        x = self.ok_json(*mem, "--expandable-segments")
        self.assertEqual(x["peak_allocated_bytes"], r["peak_allocated_bytes"])
        self.assertEqual(x["stranded_bytes"], 0)
        self.assertLess(x["peak_reserved_bytes"], r["peak_reserved_bytes"])
        # Layers of the framework's own (Unsloth): no replay, the fraction alone.
        n = self.ok_json(*mem, "--no-eval-replay")
        self.assertIs(n["assumptions"]["eval_replay"], False)
        self.assertIs(r["assumptions"]["eval_replay"], True)
        self.assertEqual(n["peak_reserved_bytes"], x["peak_reserved_bytes"])
        self.bad("memory", "--config", cfg, "--mode", "inference", "--eval-replay",
                 mentions="eval-replay")

    def test_unsloth_loss_chunks_by_release_and_card(self):
        """--loss fused-chunked (Unsloth since 2025.8.5): the loss and its gradient in
        forward, the rows split into chunks sized by half the card's free memory, capped at
        4 GiB since 2026.7.1 (--loss-target, --loss-chunks-round). --framework-release picks
        the release's loss. Llama 3.2 3B at 8 x 2048 on a 16 GiB card: 4 x 16384 x 128256 B
        of fp32 logits, 4 chunks under the cap (the latest), one whole chunk as 2025.11.6
        rounded (it is below twice half the free memory)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.2-3b.config.json")
        fit = ("fit", "--config", cfg, "--capacity", "16GiB", "--gpus", "1", "--mode",
               "qlora", "--context", "2048", "--micro-batch", "8", "--batch", "8",
               "--recompute", "full", "--framework", "unsloth")
        row = 2 * 2 * 128256 + 2 * 3072
        latest = self.ok_json(*fit)
        self.assertEqual(latest["assumptions"]["loss"], "fused-chunked")
        self.assertEqual(latest["assumptions"]["loss_target_bytes"], 4 * 1024 ** 3)
        self.assertEqual(latest["assumptions"]["loss_chunks_round"], "up")
        self.assertEqual(latest["phases"]["loss_chunks"], 4)
        self.assertEqual(latest["phases"]["loss_chunk_bytes"], 4096 * row)
        old = self.ok_json(*fit, "--framework-release", "2025.11.6")
        self.assertIsNone(old["assumptions"]["loss_target_bytes"])
        self.assertEqual(old["assumptions"]["loss_chunks_round"], "nearest")
        self.assertEqual(old["phases"]["loss_chunks"], 1)
        self.assertEqual(old["phases"]["loss_chunk_bytes"], 16384 * row)
        self.assertEqual(old["peak_phase"], "forward")
        self.assertGreater(old["peak_bytes"], latest["peak_bytes"])
        self.assertEqual(latest["assumptions"]["framework_release"], "latest")
        self.assertTrue(latest["assumptions"]["release_dated"])
        self.assertEqual(old["assumptions"]["framework_release"], "2025.11.6")
        # A profile with no dated choices says so: the release given changes nothing.
        tt = ("fit", "--config", cfg, "--capacity", "16GiB", "--gpus", "1", "--mode",
              "lora", "--context", "512", "--framework", "torchtune")
        tt_latest = self.ok_json(*tt)
        tt_old = self.ok_json(*tt, "--framework-release", "2024.5")
        self.assertFalse(tt_old["assumptions"]["release_dated"])
        self.assertEqual(tt_old["assumptions"]["framework_release"], "2024.5")
        self.assertEqual(tt_old["peak_bytes"], tt_latest["peak_bytes"])
        self.assertIn("profile differs by release         no",
                      self.ok_table(*tt, "--framework-release", "2024.5"))
        cce = self.ok_json(*fit, "--framework-release", "2025.3")
        self.assertEqual(cce["assumptions"]["loss"], "fused")
        self.assertEqual(cce["phases"]["loss_chunks"], 0)
        self.assertEqual(self.ok_json("memory", "--config", cfg, "--mode", "qlora",
                                      "--framework", "unsloth", "--framework-release",
                                      "2024.5")["assumptions"]["loss"], "inplace")
        # Given alone over the release: the cap and the rounding.
        capped = self.ok_json(*fit, "--framework-release", "2025.11.6", "--loss-target",
                              "1GiB", "--loss-chunks-round", "up")
        self.assertEqual(capped["phases"]["loss_chunks"], 8)
        # memory: the card given by --card-memory; a larger card never splits more.
        mem = ("memory", "--config", cfg, "--mode", "qlora", "--context", "2048",
               "--micro-batch", "8", "--recompute", "full", "--framework", "unsloth",
               "--loss-target", "none")
        nocard = self.ok_json(*mem)
        self.assertEqual(nocard["loss_chunks"], 1)
        small = self.ok_json(*mem, "--card-memory", "8GiB")
        big = self.ok_json(*mem, "--card-memory", "80GiB")
        self.assertGreater(small["loss_chunks"], big["loss_chunks"])
        self.assertLess(small["loss_chunk_bytes"], big["loss_chunk_bytes"])
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--framework-release", "2025.1",
                 mentions="--framework")
        self.bad(*mem, "--framework-release", "2025.13", mentions="framework-release")
        self.bad(*mem, "--loss", "fused", "--card-memory", "8GiB", mentions="fused-chunked")
        self.bad(*mem[:-2], "--loss", "fused", "--loss-target", "2GiB",
                 mentions="fused-chunked")
        self.bad(*mem, "--loss-target", "lots", mentions="loss-target")
        self.bad(*mem, "--loss-free-share", "0", mentions="loss-free-share")
        self.bad(*mem, "--card-memory", "0B", mentions="card-memory")

    def test_unsloth_checkpointing_off_below_trl_0_22(self):
        """--trl-release: Unsloth 2025.11.5 to 2026.6.x pass the SFTConfig's
        gradient_checkpointing to for_training, and TRL's SFTConfig says True only from
        0.22.0: below it every layer's activations stay on the card (recompute none, no
        offload, from the profile); fit, plan and memory alike; refused where it would
        change nothing."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "qwen2.5-3b.config.json")
        mem = ("memory", "--config", cfg, "--mode", "qlora", "--context", "1024",
               "--framework", "unsloth", "--framework-release", "2026.6.9")
        on = self.ok_json(*mem)
        self.assertEqual(on["assumptions"]["trl_release"], "latest")
        off = self.ok_json(*mem, "--trl-release", "0.15.2")
        self.assertEqual(off["assumptions"]["trl_release"], "0.15.2")
        self.assertEqual((off["assumptions"]["recompute"], off["assumptions"]["activation_offload"]),
                         ("none", False))
        self.assertEqual(off["assumptions"]["recompute_source"], "framework profile")
        self.assertGreater(off["peak_allocated_bytes"], on["peak_allocated_bytes"])
        self.assertEqual(self.ok_json(*mem, "--trl-release", "0.22.0")["peak_allocated_bytes"],
                         on["peak_allocated_bytes"])
        # The user's own choice wins over the profile's.
        given = self.ok_json(*mem, "--trl-release", "0.15.2", "--recompute", "full")
        self.assertEqual(given["assumptions"]["recompute"], "full")
        fixed = ("memory", "--config", cfg, "--mode", "qlora", "--context", "1024",
                 "--framework", "unsloth", "--framework-release", "2026.7.1")
        self.assertEqual(self.ok_json(*fixed, "--trl-release", "0.15.2")["peak_allocated_bytes"],
                         self.ok_json(*fixed)["peak_allocated_bytes"])
        self.assertIn("TRL release                        0.15.2",
                      self.ok_table(*mem, "--trl-release", "0.15.2"))
        fit = ("fit", "--config", cfg, "--gpu", "t4", "--gpus", "1", "--mode", "qlora",
               "--context", "1024", "--framework", "unsloth", "--framework-release", "2026.6.9")
        self.assertEqual(self.ok_json(*fit, "--trl-release", "0.15.2")["layout"]["recompute"],
                         "none")
        self.bad(*mem, "--trl-release", "2025.1", mentions="trl-release")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--trl-release", "0.15",
                 mentions="--framework")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--framework", "torchtune",
                 "--trl-release", "0.15", mentions="trl-release")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--framework", "trl",
                 "--trl-release", "1.9", mentions="framework-release")

    def test_load_warmup_block_and_transformers_release(self):
        """--load-warmup: transformers' caching allocator warm-up (from_pretrained with a
        device map, 4.50 on) allocates and frees one block of the state dict's bytes, half
        for a quantized model, capped by the card's free memory: a floor under the peak
        when the loading is counted (--no-load-counted: reset after loading). The unsloth
        profile sets it by --transformers-release (from Unsloth 2025.4)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "gpt-oss-20b.config.json")
        fit = ("fit", "--config", cfg, "--gpu", "rtx-a6000", "--gpus", "1", "--mode", "qlora",
               "--context", "256", "--lora-targets", "attention", "--recompute", "full")
        plain = self.ok_json(*fit)
        warm = self.ok_json(*fit, "--load-warmup", "4.51")
        params = self.ok_json("model", "--config", cfg)["params_total"]
        mib2 = 2 ** 21
        block = -(-2 * (2 * params // 4) // mib2) * mib2   # 1 byte a parameter, 2 MiB up
        self.assertEqual(warm["peak_phase"], "load")
        self.assertEqual(warm["phases"]["load_bytes"], block)
        self.assertEqual(warm["peak_reserved_bytes"], block)
        self.assertGreater(warm["peak_reserved_bytes"], plain["peak_reserved_bytes"])
        self.assertEqual(warm["assumptions"]["load_warmup"], "4.51")
        # Statistics reset after loading: the allocated peak no longer sees the block, but
        # its segment holds the weights and stays reserved; with expandable segments
        # empty_cache unmaps the free tail.
        reset = self.ok_json(*fit, "--load-warmup", "4.51", "--no-load-counted")
        self.assertIs(reset["assumptions"]["load_counted"], False)
        self.assertNotEqual(reset["peak_phase"], "load")
        self.assertEqual(reset["peak_allocated_bytes"], plain["peak_allocated_bytes"])
        self.assertEqual(reset["peak_reserved_bytes"], block)
        exp = self.ok_json(*fit, "--load-warmup", "4.51", "--no-load-counted",
                           "--expandable-segments")
        self.assertEqual(exp["peak_reserved_bytes"],
                         self.ok_json(*fit, "--expandable-segments")["peak_reserved_bytes"])
        # A small card caps the block (0.95 x free until 4.51), halved for 4-bit.
        t4 = self.ok_json("fit", "--config", cfg, "--capacity", "16GiB", "--gpus", "1",
                          "--mode", "qlora", "--context", "256", "--lora-targets",
                          "attention", "--load-warmup", "4.51")
        self.assertLess(t4["phases"]["load_bytes"], block)
        # The unsloth profile by transformers' release.
        un = fit + ("--framework", "unsloth", "--framework-release", "2026.9.14")
        self.assertEqual(self.ok_json(*un, "--transformers-release", "4.56.2")["assumptions"]
                         ["load_warmup"], "4.54")
        old = self.ok_json(*un, "--transformers-release", "4.49.0")
        self.assertEqual(old["assumptions"]["load_warmup"], "none")
        self.assertEqual(old["assumptions"]["transformers_release"], "4.49.0")
        self.assertIn("transformers' load warm-up as of", self.ok_table(*un))
        self.bad(*un, "--transformers-release", "4.x", mentions="transformers-release")
        self.bad(*fit, "--transformers-release", "4.51", mentions="--framework")
        self.bad(*fit, "--framework", "torchtune", "--transformers-release", "4.51",
                 mentions="transformers-release")
        self.bad(*fit, "--load-warmup", "4.49", mentions="load-warmup")
        mem = ("memory", "--config", cfg, "--mode", "qlora", "--context", "256")
        self.bad(*mem, "--card-memory", "48GiB", mentions="card-memory")
        self.assertEqual(self.ok_json(*mem, "--card-memory", "48GiB", "--load-warmup",
                                      "4.54", "--lora-targets", "attention")["peak_phase"],
                         "load")

    def test_unsloth_short_micro_batches_keep_whole_logits(self):
        """--loss-short-tokens, --loss-short: Unsloth 2024.12.5 to 2025.10.10 sends a
        micro-batch of at most 1024 tokens to its whole-logits loss; unpacked micro-batches
        vary in length, so one of 1024 tokens competes for the peak: 1024 rows of Llama 3.2
        1B's 128256 bf16 logits beside what a 4096-row micro-batch stores. The release sets
        it; packed runs never meet it above the threshold."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.2-1b.config.json")
        mem = ("memory", "--config", cfg, "--mode", "qlora", "--context", "2048",
               "--micro-batch", "2", "--recompute", "full", "--framework", "unsloth")
        cce = self.ok_json(*mem, "--framework-release", "2024.12.4")
        short = self.ok_json(*mem, "--framework-release", "2025.4.7")
        self.assertEqual(cce["assumptions"]["loss_short_tokens"], 0)
        self.assertEqual(short["assumptions"]["loss_short_tokens"], 1024)
        self.assertEqual(short["assumptions"]["loss_short"], "inplace")
        self.assertGreater(short["forward_bytes"], cce["forward_bytes"])
        # The cast copy and Accelerate's fp32 copy share one slot at the forward's end
        # (the cast copy is freed as the fp32 one is made): the cast shows without the latter.
        cast = self.ok_json(*mem, "--framework-release", "2025.4.7", "--loss-short",
                            "inplace-cast")
        self.assertEqual(cast["forward_bytes"], short["forward_bytes"])
        bare = self.ok_json(*mem, "--framework-release", "2025.4.7", "--no-outputs-fp32")
        bare_cast = self.ok_json(*mem, "--framework-release", "2025.4.7", "--no-outputs-fp32",
                                 "--loss-short", "inplace-cast")
        self.assertEqual(bare_cast["forward_bytes"] - bare["forward_bytes"], 1024 * 128256 * 2)
        packed = self.ok_json(*mem, "--framework-release", "2025.4.7", "--packed")
        self.assertEqual(packed["forward_bytes"], cce["forward_bytes"])
        self.assertEqual(self.ok_json(*mem, "--framework-release", "2025.4.7",
                                      "--loss-short-tokens", "0")["forward_bytes"],
                         cce["forward_bytes"])
        self.bad(*mem, "--framework-release", "2025.11.6", "--loss-short", "inplace-cast",
                 mentions="loss-short-tokens")
        self.bad(*mem, "--loss-short-tokens", "1024", "--loss-short", "fused",
                 mentions="loss-short")
        self.bad("memory", "--config", cfg, "--mode", "inference", "--loss-short-tokens",
                 "1024", mentions="loss-short-tokens")

    def test_lora_modules_follow_the_checkpoint_or_megatron(self):
        """--lora-modules: PEFT wraps Phi-3's fused qkv_proj and gate_up_proj with one
        adapter each, so r 16 on every linear of phi-3-mini-4k-instruct trains 25,165,824
        parameters, as PEFT prints (nehru/ai-docstring-generator README.md at e6d4edd2);
        separate projections give 29,884,416. The PEFT profiles set checkpoint, megatron
        fused (Llama 3.1 8B: 35,651,584 instead of 41,943,040); a target naming part of a
        fused module adapts the whole module; refused outside LoRA."""
        import os
        from clitest import TEST_DATA
        phi = os.path.join(TEST_DATA, "models", "phi-3-mini-4k-instruct.config.json")
        llama = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        peft = self.ok_json("memory", "--config", phi, "--mode", "lora", "--framework",
                            "hf-trainer+peft")
        self.assertEqual(peft["trainable_params"], 25165824)
        self.assertEqual(peft["assumptions"]["lora_modules"], "checkpoint")
        sep = self.ok_json("memory", "--config", phi, "--mode", "lora")
        self.assertEqual(sep["trainable_params"], 29884416)
        self.assertEqual(sep["assumptions"]["lora_modules"], "separate")
        given = self.ok_json("memory", "--config", phi, "--mode", "lora", "--framework",
                             "hf-trainer+peft", "--lora-modules", "separate")
        self.assertEqual(given["trainable_params"], 29884416)
        table = self.ok_table("memory", "--config", phi, "--mode", "lora", "--framework",
                        "hf-trainer+peft")
        self.assertIn("25,165,824", table)
        qv = self.ok_json("memory", "--config", phi, "--mode", "lora", "--lora-targets",
                          "q,v", "--lora-modules", "checkpoint")
        self.assertEqual(qv["trainable_params"], 32 * 16 * (3072 + 9216))
        mg = self.ok_json("memory", "--config", llama, "--mode", "lora", "--framework",
                          "megatron")
        self.assertEqual(mg["assumptions"]["lora_modules"], "fused")
        self.assertEqual(mg["trainable_params"], 35651584)
        ck = self.ok_json("memory", "--config", llama, "--mode", "lora", "--lora-modules",
                          "checkpoint")
        self.assertEqual(ck["trainable_params"], 41943040)
        self.bad("memory", "--config", phi, "--mode", "inference", "--lora-modules",
                 "checkpoint", mentions="lora-modules")
        self.bad("memory", "--config", phi, "--mode", "lora", "--lora-modules", "qkv",
                 mentions="lora-modules")

    def test_compiled_mlp_keeps_the_product_for_a_trained_down_projection(self):
        """--compile: torch.compile's partitioner keeps the product act(gate) * up when the
        down projection's weight takes a gradient (a backward matmul reads it) and
        recomputes act(gate): Llama 3.1 8B full, 1,024 tokens, no recomputation, 3F a token
        and layer compiled against 4F eager (--gated-act-kept): 32 x 1,024 x 14,336 x 2
        bytes apart; with the down projection frozen (LoRA on q, v) compiled keeps 2F."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--context", "1024", "--recompute", "none")
        eager = self.ok_json(*args, "--mode", "full", "--gated-act-kept")
        compiled = self.ok_json(*args, "--mode", "full", "--compile")
        plain = self.ok_json(*args, "--mode", "full")
        self.assertEqual(eager["activation_bytes"] - compiled["activation_bytes"],
                         32 * 1024 * 14336 * 2)
        self.assertEqual(compiled["activation_bytes"], plain["activation_bytes"])
        lora = ("--mode", "lora", "--lora-targets", "q,v")
        frozen = self.ok_json(*args, *lora, "--compile")
        self.assertEqual(self.ok_json(*args, *lora)["activation_bytes"],
                         frozen["activation_bytes"])

    def test_sgd_plain_keeps_no_optimizer_state(self):
        """--optimizer sgd-plain: torch.optim.SGD with momentum 0 (its default) makes no
        momentum_buffer. Llama 3.1 8B full, 8,030,261,248 parameters: with master weights
        4 bytes a parameter of optimizer memory (sgd: 8), without them none; fit takes the
        choice too and the answer names it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        p = 8030261248
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024")
        self.assertEqual(self.ok_json(*args, "--optimizer", "sgd")["optimizer_bytes"], 8 * p)
        plain = self.ok_json(*args, "--optimizer", "sgd-plain")
        self.assertEqual(plain["optimizer_bytes"], 4 * p)
        self.assertEqual(plain["optimizer"], "sgd-plain")
        bare = self.ok_json(*args, "--optimizer", "sgd-plain", "--no-master-weights")
        self.assertEqual(bare["optimizer_bytes"], 0)
        fit = self.ok_json("fit", "--config", cfg, "--mode", "full", "--gpu", "h100-sxm",
                           "--gpus", "8", "--context", "1024", "--optimizer", "sgd-plain")
        self.assertEqual(fit["assumptions"]["optimizer"], "sgd-plain")
        self.bad(*args, "--optimizer", "sgd-none", mentions="optimizer")

    def test_trained_fp32_holds_the_trained_parameters_in_fp32(self):
        """Round 6 of issue #16: --trained-fp32 holds the trained parameters in fp32
        (LLaMA-Factory's cast_trainable_params_to_fp32): Llama 3.1 8B full, 8,030,261,248
        parameters, weights 4 bytes each and no master copy; the llama-factory profile sets
        it with fp32 gradients and moments (16 bytes a parameter), --no-trained-fp32 (its
        pure_bf16) undoes it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024")
        p = 8030261248
        base = self.ok_json(*args)
        up = self.ok_json(*args, "--trained-fp32")
        self.assertEqual(base["weights_bytes"], 2 * p)
        self.assertEqual(up["weights_bytes"], 4 * p)
        self.assertEqual(up["optimizer_bytes"], 8 * p)
        self.assertIs(up["assumptions"]["trained_fp32"], True)
        lf = self.ok_json(*args, "--framework", "llama-factory")
        self.assertIs(lf["assumptions"]["trained_fp32"], True)
        self.assertEqual(lf["weights_bytes"] + lf["gradient_bytes"] + lf["optimizer_bytes"],
                         16 * p)
        pure = self.ok_json(*args, "--framework", "llama-factory", "--no-trained-fp32",
                            "--gradients", "bf16", "--optimizer-states", "bf16")
        self.assertIs(pure["assumptions"]["trained_fp32"], False)
        self.assertEqual(pure["weights_bytes"] + pure["gradient_bytes"]
                         + pure["optimizer_bytes"], 8 * p)
        self.bad("memory", "--config", cfg, "--trained-fp32", mentions="trained-fp32")
        # memory weighs one device: the options that act only under ZeRO-3/FSDP sharding
        # would be ignored there, so they are refused (fit, plan and perf take them).
        for flag in ("--root-unsharded", "--quant-scales-replicated", "--no-root-unsharded",
                     "--offload-after-load"):
            self.bad("memory", "--config", cfg, "--mode", "qlora", flag,
                     mentions=flag.replace("--no-", "--"))


    def test_zero_buckets_are_deepspeeds_reduce_buffers(self):
        """DeepSpeed's ZeRO optimizer reduces through contiguous buffers of
        reduce_bucket_size elements in bf16 (stage_1_and_2.py backward: a second with
        overlap_comm), not the 25 MiB DDP bucket; the deepspeed profile turns them on
        (--zero-buckets), DeepSpeed's default 5e8 elements. Llama 3.1 8B full, 4 cards,
        ZeRO-2, no NCCL buffers."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "2", "--mode",
                "full", "--capacity", "1024GiB", "--comm-buffer", "0B")
        buf = lambda *more: self.ok_json(*args, *more)["breakdown"]["buffer_bytes"]
        self.assertEqual(buf(), 25 * 2**20)
        ds = self.ok_json(*args, "--framework", "deepspeed")
        self.assertEqual(ds["breakdown"]["buffer_bytes"], 10**9)
        self.assertIs(ds["assumptions"]["zero_buckets"], True)
        self.assertEqual(buf("--framework", "deepspeed", "--reduce-bucket-size", "2e8",
                             "--overlap-comm"), 8 * 10**8)
        self.assertEqual(buf("--zero-buckets", "--reduce-bucket-size", "200000000"), 4 * 10**8)
        self.assertEqual(buf("--framework", "deepspeed", "--no-zero-buckets"), 25 * 2**20)
        self.bad(*args, "--reduce-bucket-size", "0.5", mentions="--reduce-bucket-size")
        # An update in backward (LOMO) at stage 3: DeepSpeed gets no optimizer and builds
        # DeepSpeedZeRoOffload, none of the ZeRO optimizer's buffers; at stage 2 its
        # DeepSpeedZeroOptimizer still wraps a DummyOptim.
        lomo = ("--framework", "deepspeed", "--optimizer", "sgd-plain", "--optimizer-in-backward",
                "--no-master-weights", "--no-gradient-buffer")
        self.assertEqual(buf(*lomo), 10**9)
        z3 = [a if a != "2" else "3" for a in args]
        b3 = lambda *more: self.ok_json(*z3, *lomo, *more)["breakdown"]["buffer_bytes"]
        self.assertEqual(b3("--no-zero-buckets") - b3(), 25 * 2**20,
                         "not even the bucket in flight: the hook reduces each .grad in place")

    def test_unsloth_fast_model_under_ddp(self):
        """Unsloth's FastModel path under several processes keeps its checkpoints on the
        card from 2025.12.8 (models/vision.py: use_reentrant = not is_distributed()); one
        process keeps the offload; the flag belongs to the unsloth profile alone."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "qwen3-8b.config.json")
        args = ("fit", "--model", cfg, "--gpu", "t4", "--mode", "qlora", "--weights", "nf4-dq",
                "--context", "8192", "--framework", "unsloth", "--framework-release", "2026.8.3",
                "--zero", "0", "--no-load-counted", "--micro-batch", "1")
        ddp = ("--gpus", "2", "--dp", "2", "--batch", "2")
        off = self.ok_json(*args, *ddp, "--unsloth-fast-model")
        on = self.ok_json(*args, *ddp)
        self.assertIs(off["assumptions"]["unsloth_fast_model"], True)
        self.assertIs(off["assumptions"]["activation_offload"], False)
        self.assertIs(on["assumptions"]["activation_offload"], True)
        self.assertGreater(off["peak_allocated_bytes"], on["peak_allocated_bytes"] + 2 * 10**9)
        one = self.ok_json(*args, "--gpus", "1", "--batch", "1", "--unsloth-fast-model")
        self.assertIs(one["assumptions"]["activation_offload"], True)
        self.bad("fit", "--model", cfg, "--gpu", "t4", "--mode", "lora", "--framework", "hf-trainer",
                 "--unsloth-fast-model", mentions="--unsloth-fast-model")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--framework", "unsloth",
                 "--unsloth-fast-model", mentions="--unsloth-fast-model")

    def test_fsdp_single_unit(self):
        """FSDP with no auto-wrap policy: the whole model one unit; its gradient twice at the
        backward's end (split views, then their concatenation), gone before the step.
        Llama 3.1 8B full, bf16, 8 cards, ZeRO-3."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "8", "--dp", "8", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB", "--recompute", "full",
                "--no-reshard-after-forward")
        a, b = self.ok_json(*args), self.ok_json(*args, "--fsdp-single-unit")
        ug = 2 * (128256 * 4096 + 4096)
        self.assertEqual(b["breakdown"]["buffer_bytes"] - a["breakdown"]["buffer_bytes"],
                         4 * 8030261248 - ug)
        self.assertEqual(b["phases"]["step_bytes"], a["phases"]["step_bytes"])
        self.assertIs(b["assumptions"]["fsdp_single_unit"], True)
        self.assertIn("whole model one FSDP unit", self.ok_table(*args, "--fsdp-single-unit"))
        # The memory command has no cards to shard over: refused, not ignored.
        self.bad("memory", "--config", cfg, "--mode", "full", "--fsdp-single-unit",
                 mentions="--fsdp-single-unit")

    def test_zero3_linear_views_kept(self):
        """--zero3-linear-views-kept: DeepSpeed ZeRO-3 without its own linear keeps every
        layer not recomputed gathered from forward to backward. Llama 3.1 8B full, 8 cards,
        no recomputation: the forward grows, the step does not; with full recomputation
        nothing moves; the memory command refuses it."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "8", "--dp", "8", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB", "--recompute", "none")
        a, b = self.ok_json(*args), self.ok_json(*args, "--zero3-linear-views-kept")
        self.assertGreater(b["phases"]["forward_bytes"], a["phases"]["forward_bytes"] + 10 * 2**30)
        self.assertEqual(b["phases"]["step_bytes"], a["phases"]["step_bytes"])
        self.assertIs(b["assumptions"]["zero3_linear_views_kept"], True)
        full = [a2 if a2 != "none" else "full" for a2 in args]
        self.assertEqual(self.ok_json(*full)["peak_bytes"],
                         self.ok_json(*full, "--zero3-linear-views-kept")["peak_bytes"])
        self.bad("memory", "--config", cfg, "--mode", "full", "--zero3-linear-views-kept",
                 mentions="--zero3-linear-views-kept")
        self.bad(*args, "--zero3-linear-views-kept", "--no-reshard-after-forward",
                 mentions="--zero3-linear-views-kept")

    def test_built_whole(self):
        """The whole model on each card before ZeRO-3 sharded it: its parameters' freed
        segments stay reserved beside the run's peak. Llama 3.1 8B full, bf16, 4 cards, no
        allocator reserve fraction: reserved grows by the whole bf16 model, allocated not."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB", "--recompute", "full",
                "--fragmentation", "0")
        a, b = self.ok_json(*args), self.ok_json(*args, "--built-whole")
        self.assertEqual(b["peak_reserved_bytes"] - a["peak_reserved_bytes"], 2 * 8030261248)
        self.assertEqual(b["peak_allocated_bytes"], a["peak_allocated_bytes"])
        self.assertIs(a["assumptions"]["built_whole"], False)
        self.assertIs(b["assumptions"]["built_whole"], True)
        self.assertIn("whole model on the card before sharding",
                      self.ok_table(*args, "--built-whole"))
        self.bad("memory", "--config", cfg, "--mode", "full", "--built-whole",
                 mentions="--built-whole")

    def test_ddp_buckets_copy_the_gradient(self):
        """Plain PyTorch DDP (ZeRO 0): the Reducer's buckets are a second copy of the
        trained gradient, held for the run, whatever --bucket (reducer.cpp
        initialize_buckets); --gradient-buffer (gradient_as_bucket_view, Megatron's buffer)
        and DeepSpeed's engine have none. Llama 3.1 8B full in bf16 on 4 cards: 2 bytes x
        8,030,261,248 parameters."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "0", "--mode",
                "full", "--weights", "bf16", "--gradients", "bf16", "--capacity", "1024GiB",
                "--comm-buffer", "0B")
        buf = lambda *more: self.ok_json(*args, *more)["breakdown"]["buffer_bytes"]
        self.assertEqual(buf(), 2 * 8030261248)
        self.assertEqual(buf("--bucket", "100MiB"), 2 * 8030261248)
        self.assertEqual(buf("--gradient-buffer"), 25 * 2**20)
        self.assertEqual(buf("--framework", "deepspeed"), 25 * 2**20)
        self.assertIn("communication buffers", self.ok_table(*args))

    def test_no_reshard_after_forward_and_unsharded_grads(self):
        """FSDP2 fully_shard(reshard_after_forward=False) keeps every unit of the card
        gathered from forward through backward (torchtitan under pipelining), and torch
        pipelining's set_requires_gradient_sync(False) keeps each unit's gradient unsharded
        across micro-batches in reduce_dtype (fp32: 4 bytes). Llama 3.1 8B full on 4 cards,
        ZeRO-3, no NCCL buffers: the whole model in bf16 (2 x 8,030,261,248) and the head's
        gradient unit instead of one layer and the head live; 4 bytes a parameter more in
        gradients; neither held in the optimizer step."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        p, layer, head = 8030261248, 218112000, 525336576 + 4096
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB", "--comm-buffer", "0B")
        a = self.ok_json(*args)
        b = self.ok_json(*args, "--no-reshard-after-forward")
        c = self.ok_json(*args, "--no-reshard-after-forward", "--unsharded-grad-bytes", "4")
        self.assertEqual(a["breakdown"]["buffer_bytes"], 2 * layer + 4 * head + 25 * 2**20)
        self.assertEqual(b["breakdown"]["buffer_bytes"], 2 * p + 2 * head + 25 * 2**20)
        self.assertIs(b["assumptions"]["no_reshard_after_forward"], True)
        self.assertEqual(c["breakdown"]["gradient_bytes"] - b["breakdown"]["gradient_bytes"],
                         4 * p)
        self.assertEqual(c["assumptions"]["unsharded_grad_bytes"], 4)
        held = 2 * p - 2 * layer - 2 * head + 4 * p
        self.assertEqual(c["phases"]["forward_bytes"] - a["phases"]["forward_bytes"], held)
        # backward's end holds the sharded gradients instead of the unsharded ones (each
        # unit's reduction frees its unsharded gradient); reserved, both stay (the shards
        # come on the reduction's stream)
        self.assertLess(c["phases"]["backward_bytes"] - a["phases"]["backward_bytes"], held)
        self.assertGreaterEqual(c["peak_reserved_bytes"],
                                a["phases"]["backward_bytes"] + held)
        # the step holds neither the live window (resharded before it) nor the units
        self.assertEqual(a["phases"]["step_bytes"], c["phases"]["step_bytes"])
        self.bad(*args, "--unsharded-grad-bytes", "1.5", mentions="--unsharded-grad-bytes")

    def test_grad_covers_frozen(self):
        """FSDP1 use_orig_params=True: a decoder layer's FlatParameter holds its frozen
        weights and its LoRA adapters and requires grad, so its gradients cover all of them:
        Llama 3.1 8B LoRA on 4 cards, ZeRO-3, bf16 gradients: the sharded gradients grow by
        32 layers x 218,112,000 x 2 / 4; with no_sync's unsharded gradients (2 bytes) by
        2 bytes an element of every layer more; the optimizer states stay the adapters'."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        layers = 32 * 218112000
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                "lora", "--capacity", "1024GiB")
        a = self.ok_json(*args)
        b = self.ok_json(*args, "--grad-covers-frozen")
        c = self.ok_json(*args, "--grad-covers-frozen", "--unsharded-grad-bytes", "2")
        self.assertIs(b["assumptions"]["grad_covers_frozen"], True)
        self.assertIs(a["assumptions"]["grad_covers_frozen"], False)
        self.assertEqual(b["breakdown"]["optimizer_bytes"], a["breakdown"]["optimizer_bytes"])
        grown = b["breakdown"]["gradient_bytes"] - a["breakdown"]["gradient_bytes"]
        self.assertLessEqual(abs(grown - 2 * layers // 4), 1)
        unsharded = c["breakdown"]["gradient_bytes"] - b["breakdown"]["gradient_bytes"]
        self.assertGreater(unsharded, 2 * layers)
        self.assertLess(unsharded, 2 * layers * 1.01)
        self.bad("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                 "qlora", "--capacity", "1024GiB", "--grad-covers-frozen",
                 mentions="--grad-covers-frozen")
        self.bad("memory", "--model", cfg, "--mode", "lora", "--grad-covers-frozen",
                 mentions="--grad-covers-frozen")
        self.bad(*args, "--unsharded-grad-bytes", "9", mentions="--unsharded-grad-bytes")
        self.bad("memory", "--config", cfg, "--no-reshard-after-forward",
                 mentions="no-reshard-after-forward")

    def test_fsdp_flat_upcast_holds_fp32_shards(self):
        """--fsdp-flat-upcast: FSDP1's flat parameters upcast to fp32 (Accelerate 0.30+) are
        the shards; the 16-bit copy exists only around a unit's all-gather (_mp_shard). Llama
        3.1 8B full, ZeRO-3 on 4 cards, --trained-fp32 with fp32 gradients: 4 + 4 bytes of
        parameter and gradient shard (8,030,261,248 x 4 / 4 each) and 8 of moments, against
        DeepSpeed's 2 + 2 and 4 + 8; forward 2 bytes / 4 less; the step the same."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        q = 8030261248 // 4
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB", "--trained-fp32", "--gradients", "fp32")
        ds = self.ok_json(*args)
        fs = self.ok_json(*args, "--fsdp-flat-upcast")
        self.assertEqual([ds["breakdown"][k] for k in ("weights_bytes", "gradient_bytes",
                                                       "optimizer_bytes")], [2 * q, 2 * q, 12 * q])
        self.assertEqual([fs["breakdown"][k] for k in ("weights_bytes", "gradient_bytes",
                                                       "optimizer_bytes")], [4 * q, 4 * q, 8 * q])
        self.assertEqual(fs["breakdown"]["buffer_bytes"], ds["breakdown"]["buffer_bytes"])
        self.assertEqual(ds["phases"]["forward_bytes"] - fs["phases"]["forward_bytes"], 2 * q)
        self.assertEqual(ds["phases"]["step_bytes"], fs["phases"]["step_bytes"])
        self.assertIs(fs["assumptions"]["fsdp_flat_upcast"], True)
        self.assertIs(ds["assumptions"]["fsdp_flat_upcast"], False)
        fw = self.ok_json(*args, "--framework", "fsdp")
        self.assertIs(fw["assumptions"]["fsdp_flat_upcast"], True)
        self.bad("memory", "--config", cfg, "--fsdp-flat-upcast", mentions="fsdp-flat-upcast")

    def test_offload_keeps_grads_leaves_the_gradient_buffer(self):
        """--offload-keeps-grads: Megatron-Core's CPU optimizer copies the gradients to the
        host and keeps its fp32 main_grad buffer on the card. Llama 3.1 8B full, ZeRO-1 on 4
        cards, fp32 gradients, --offload optimizer: 4 bytes a parameter of gradients stay
        (8,030,261,248 x 4), where DeepSpeed's ZeRO-Offload keeps none; the megatron profile
        sets it; refused with an offload that keeps the optimizer on the card."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "1", "--mode",
                "full", "--capacity", "1024GiB", "--gradients", "fp32", "--offload", "optimizer")
        zo = self.ok_json(*args)
        mc = self.ok_json(*args, "--offload-keeps-grads")
        self.assertEqual(zo["breakdown"]["gradient_bytes"], 0)
        self.assertEqual(mc["breakdown"]["gradient_bytes"], 8030261248 * 4)
        self.assertEqual(mc["breakdown"]["optimizer_bytes"], 0)
        self.assertIs(mc["assumptions"]["offload_keeps_grads"], True)
        self.assertIs(zo["assumptions"]["offload_keeps_grads"], False)
        mg = self.ok_json(*args, "--framework", "megatron")
        self.assertIs(mg["assumptions"]["offload_keeps_grads"], True)
        self.assertEqual(mg["breakdown"]["gradient_bytes"], 8030261248 * 4)
        self.bad(*args[:-2], "--offload", "none", "--offload-keeps-grads",
                 mentions="offload-keeps-grads")
        self.bad("memory", "--config", cfg, "--offload-keeps-grads",
                 mentions="offload-keeps-grads")

    def test_reduce_held_bytes_holds_a_layers_reduce_scatter_input(self):
        """--reduce-held-bytes: FSDP2 keeps the previous layer's reduce-scatter input (in
        reduce_dtype) until the next layer's post_backward: Llama 3.1 8B full, ZeRO-3 on 4
        cards, one layer of 218,112,000 parameters at 2 bytes more in the buffers."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3", "--mode",
                "full", "--capacity", "1024GiB")
        a = self.ok_json(*args)
        b = self.ok_json(*args, "--reduce-held-bytes", "2")
        self.assertEqual(b["breakdown"]["buffer_bytes"] - a["breakdown"]["buffer_bytes"],
                         2 * 218112000)
        self.assertEqual(b["assumptions"]["reduce_held_bytes"], 2)
        self.bad(*args, "--reduce-held-bytes", "9", mentions="--reduce-held-bytes")
        self.bad(*args, "--reduce-held-bytes", "1.5", mentions="--reduce-held-bytes")
        self.bad("memory", "--config", cfg, "--reduce-held-bytes", "2",
                 mentions="reduce-held-bytes")

    def test_fsdp_wrap_residue_reserves_the_flat_build(self):
        """--fsdp-wrap-residue: FSDP1 builds each unit's flat parameter on the card (twice
        the largest unit and its shard at once), and those compute-stream segments stay
        reserved beside the unshard stream's gathered units and, offloaded, a shard's copy.
        Llama 3.1 8B full on 2 cards, ZeRO-3 with parameters and optimizer offloaded, 128
        tokens: the fsdp profile sets it and peak reserved rises while peak allocated stays;
        --no-fsdp-wrap-residue turns it off; refused below ZeRO-3 and by memory."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--model", cfg, "--gpus", "2", "--dp", "2", "--zero", "3", "--mode",
                "full", "--context", "128", "--recompute", "full", "--offload",
                "optimizer,params", "--framework", "fsdp", "--capacity", "1024GiB")
        on = self.ok_json(*args)
        off = self.ok_json(*args, "--no-fsdp-wrap-residue")
        self.assertIs(on["assumptions"]["fsdp_wrap_residue"], True)
        self.assertIs(off["assumptions"]["fsdp_wrap_residue"], False)
        self.assertGreater(on["peak_reserved_bytes"], off["peak_reserved_bytes"])
        self.assertEqual(on["peak_allocated_bytes"], off["peak_allocated_bytes"])
        u = 2 * (2 * 525336576 + 4096)  # the root unit: embedding, head, final norm (bf16)
        self.assertGreaterEqual(on["peak_reserved_bytes"], 2 * u + u // 2 + u + u // 2)
        self.bad("fit", "--model", cfg, "--gpus", "2", "--dp", "2", "--zero", "2", "--mode",
                 "full", "--capacity", "1024GiB", "--fsdp-wrap-residue", mentions="ZeRO-3")
        self.bad("memory", "--config", cfg, "--mode", "full", "--fsdp-wrap-residue",
                 mentions="fsdp-wrap-residue")

    def test_experts_indexed_keeps_expert_copies(self):
        """--experts-indexed: transformers' GptOssExperts training loop copies each hit
        expert's matrices (advanced indexing) and keeps them for backward; trained, each
        index's backward builds a whole-parameter zero tensor. gpt-oss-20b full, 4,096
        tokens, full recomputation: the rebuilt layer holds 32 x 3 x 2880 x 2880 bf16 values
        of copies and 32 x 2 x 2880 x 2880 of gradient more. Refused for a dense model."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "gpt-oss-20b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--weights", "bf16",
                "--context", "4096", "--recompute", "full")
        a = self.ok_json(*args)
        b = self.ok_json(*args, "--experts-indexed")
        self.assertEqual(b["activation_bytes"] - a["activation_bytes"],
                         32 * 3 * 2880 * 2880 * 2 + 32 * 2 * 2880 * 2880 * 2)
        self.assertIs(b["assumptions"]["experts_indexed"], True)
        dense = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        self.bad("memory", "--config", dense, "--mode", "full", "--experts-indexed",
                 mentions="experts")

    def test_torchtitan_holds_fp32_shards(self):
        """torchtitan's fp32 model under FSDP2 (FSDPParam.all_gather_inputs casts the fp32
        shard to bf16 only for the all-gather; foreach_reduce casts the reduced gradient to
        fp32): 4 + 4 bytes of parameter and gradient shard and 8 of moments. Llama 3.1 8B,
        ZeRO-3 on 4 cards (8,030,261,248 x 4 / 4 each)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        q = 8030261248 // 4
        tt = self.ok_json("fit", "--model", cfg, "--gpus", "4", "--dp", "4", "--zero", "3",
                          "--mode", "full", "--capacity", "1024GiB", "--framework",
                          "torchtitan")
        self.assertEqual([tt["breakdown"][k] for k in ("weights_bytes", "gradient_bytes",
                                                       "optimizer_bytes")], [4 * q, 4 * q, 8 * q])
        self.assertIs(tt["assumptions"]["fsdp_flat_upcast"], True)
        self.assertIs(tt["assumptions"]["trained_fp32"], True)

    def test_outputs_fp32_holds_the_logits_fp32_copy_in_forward(self):
        """--outputs-fp32: Accelerate's ConvertOutputsToFp32 (the Trainer under fp16/bf16)
        copies the returned 16-bit logits to fp32 at the forward's end. Llama 3.1 8B LoRA,
        1,024 tokens: loss inplace +4 x 1,024 x 128,256 bytes in forward; inplace-cast +2 x
        that (the cast copy, 2 bytes, is freed before the fp32 copy is made); backward does
        not move. The unsloth profile sets it; refused with a loss it cannot touch."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024")
        plain = self.ok_json(*args, "--loss", "inplace")
        on = self.ok_json(*args, "--loss", "inplace", "--outputs-fp32")
        self.assertEqual(on["forward_bytes"] - plain["forward_bytes"],
                         4 * 1024 * 128256)
        self.assertEqual(on["backward_bytes"], plain["backward_bytes"])
        self.assertIs(on["assumptions"]["outputs_fp32"], True)
        self.assertIs(plain["assumptions"]["outputs_fp32"], False)
        cast = self.ok_json(*args, "--loss", "inplace-cast")
        cast_on = self.ok_json(*args, "--loss", "inplace-cast", "--outputs-fp32")
        self.assertEqual(cast_on["forward_bytes"] - cast["forward_bytes"],
                         2 * 1024 * 128256)
        fw = self.ok_json(*args, "--framework", "unsloth", "--loss", "inplace")
        self.assertIs(fw["assumptions"]["outputs_fp32"], True)
        self.assertEqual(fw["forward_bytes"] -
                         self.ok_json(*args, "--framework", "unsloth", "--loss", "inplace",
                                      "--no-outputs-fp32")["forward_bytes"],
                         4 * 1024 * 128256)
        self.bad(*args, "--loss", "fused", "--outputs-fp32", mentions="outputs-fp32")
        self.bad("memory", "--config", cfg, "--outputs-fp32", mentions="outputs-fp32")

    def test_head_cast_kept_and_trl_chunked_loss(self):
        """--head-cast-kept: a frozen fp32 head under bf16 autocast keeps its 2-byte cast
        (128,256 x 4,096 for Llama 3.1 8B) from the forward's end to its backward; the
        Trainer-based profiles set it. --loss trl-chunked (TRL's chunked_nll): 256 rows a
        chunk unless --loss-chunk says otherwise, the head's copy and one chunk's work
        (14 bytes a logit) at the forward's end; the trl profile chooses it from 1.7.
        Refusals: the chunk with another loss, a calendar release for trl."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        vh, v = 128256 * 4096, 128256
        args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
                "--unquantized", "fp32", "--context", "1024", "--recompute", "full",
                "--loss", "upcast-freed", "--logits-freed")
        plain = self.ok_json(*args)
        on = self.ok_json(*args, "--head-cast-kept")
        self.assertEqual(on["forward_bytes"] - plain["forward_bytes"], 2 * vh)
        # the loss's backward holds the copy too; the rebuilt layer does not
        self.assertLessEqual(on["backward_bytes"] - plain["backward_bytes"], 2 * vh)
        self.assertEqual(on["head_cast_bytes"], 2 * vh)
        self.assertIs(on["assumptions"]["head_cast_kept"], True)
        self.assertIs(plain["assumptions"]["head_cast_kept"], False)
        self.assertEqual(self.ok_json(*args, "--head-cast-kept", "--activations",
                                      "fp32")["head_cast_bytes"], 0)
        fw = self.ok_json(*args, "--framework", "hf-trainer+peft")
        self.assertIs(fw["assumptions"]["head_cast_kept"], True)
        self.assertIs(self.ok_json(*args, "--framework", "hf-trainer+peft",
                                   "--no-head-cast-kept")["assumptions"]["head_cast_kept"],
                      False)
        self.assertIs(self.ok_json(*args, "--framework", "torchtune")["assumptions"]
                      ["head_cast_kept"], False)
        trl_args = ("memory", "--config", cfg, "--mode", "qlora", "--weights", "nf4",
                    "--unquantized", "fp32", "--context", "1024", "--recompute", "full")
        fused = self.ok_json(*trl_args, "--loss", "fused")
        trl = self.ok_json(*trl_args, "--loss", "trl-chunked")
        self.assertEqual(trl["assumptions"]["loss_chunk_tokens"], 256)
        self.assertEqual(trl["forward_bytes"] - fused["forward_bytes"], 2 * vh + 14 * 256 * v)
        c128 = self.ok_json(*trl_args, "--loss", "trl-chunked", "--loss-chunk", "128")
        self.assertEqual(c128["forward_bytes"] - fused["forward_bytes"],
                         2 * vh + 14 * 128 * v)
        prof = self.ok_json(*trl_args, "--framework", "trl")
        self.assertEqual(prof["assumptions"]["loss"], "trl-chunked")
        self.assertEqual(prof["assumptions"]["loss_chunk_tokens"], 256)
        self.assertEqual(prof["assumptions"]["framework_release"], "latest")
        self.assertIs(prof["assumptions"]["release_dated"], True)
        old = self.ok_json(*trl_args, "--framework", "trl", "--framework-release", "1.6.2")
        self.assertNotEqual(old["assumptions"]["loss"], "trl-chunked")
        self.assertEqual(self.ok_json(*trl_args, "--framework", "trl", "--framework-release",
                                      "1.9.2")["assumptions"]["loss"], "trl-chunked")
        self.bad(*trl_args, "--framework", "trl", "--framework-release", "2025.11",
                 mentions="MAJOR.MINOR")
        self.bad(*trl_args, "--loss", "fused", "--loss-chunk", "256", mentions="loss-chunk")
        self.bad(*trl_args, "--loss", "fused", "--head-cast-kept", mentions="head-cast-kept")
        self.bad(*trl_args, "--loss", "trl-chunked", "--head-cast-kept",
                 mentions="head-cast-kept")

    def test_attention_math_backend(self):
        """--attention math (SDPA's math backend on a card without flash, GQA without a
        mask): fp32 probabilities and fp32 q/k/v copies. Llama 3.1 8B LoRA, 1,024 tokens,
        full recomputation: one layer's 104,857,600 bytes more than eager, and 134,217,728
        more in the score gradients; refused with --softmax-fp32."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--recompute", "full", "--no-dropout")
        eager = self.ok_json(*args, "--attention", "eager")
        math = self.ok_json(*args, "--attention", "math")
        self.assertEqual(math["activation_bytes"] - eager["activation_bytes"],
                         104857600 + 134217728)
        self.assertEqual(math["assumptions"]["attention"], "math")
        self.assertIs(math["assumptions"]["flash_attention"], False)
        self.bad(*args, "--attention", "math", "--softmax-fp32", mentions="softmax-fp32")

    def test_sdpa_math_on_a_card_without_flash(self):
        """fit --gpu t4 (sm75, no flash kernel): SDPA on a GQA model with one row a
        micro-batch runs the math backend (attention_runs math), an A100 runs it fused; a
        padded micro-batch of two keeps a mask and the fused kernel; --no-card-no-flash
        overrides the card, --card-no-flash sets it for memory."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.2-3b.config.json")
        fit = ("fit", "--config", cfg, "--gpus", "1", "--mode", "qlora", "--context", "2048",
               "--micro-batch", "1", "--batch", "8", "--recompute", "full", "--framework",
               "hf-trainer+peft")
        t4 = self.ok_json(*fit, "--gpu", "t4", "--capacity", "80GiB")
        a100 = self.ok_json(*fit, "--gpu", "a100-sxm-80gb")
        self.assertIs(t4["assumptions"]["card_no_flash"], True)
        self.assertEqual(t4["assumptions"]["attention_runs"], "math")
        self.assertEqual(a100["assumptions"]["attention_runs"], "flash")
        # the rebuilt layer's fp32 scores (here below the loss's backward, which sets the
        # phases)
        self.assertGreater(t4["breakdown"]["activation_bytes"],
                           a100["breakdown"]["activation_bytes"])
        off = self.ok_json(*fit, "--gpu", "t4", "--capacity", "80GiB", "--no-card-no-flash")
        self.assertEqual(off["assumptions"]["attention_runs"], "flash")
        self.assertEqual(off["breakdown"]["activation_bytes"],
                         a100["breakdown"]["activation_bytes"])
        two = self.ok_json(*[a if a != "1" or i != fit.index("--micro-batch") + 1 else "2"
                             for i, a in enumerate(fit)], "--gpu", "t4", "--capacity", "80GiB")
        self.assertEqual(two["assumptions"]["attention_runs"], "flash")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--attention", "flash",
                 "--card-no-flash", mentions="card-no-flash")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--no-sdpa-gqa-math",
                 mentions="sdpa-gqa-math")
        mem = self.ok_json("memory", "--config", cfg, "--mode", "qlora", "--context", "2048",
                           "--attention", "sdpa", "--card-no-flash")
        self.assertEqual(mem["assumptions"]["attention_runs"], "math")
        # Unsloth's own kernels serve such a card (its profile turns the fallback off), and
        # --no-sdpa-gqa-math does the same for the Trainer's profile
        uns = [a if a != "hf-trainer+peft" else "unsloth" for a in fit]
        self.assertEqual(self.ok_json(*uns, "--gpu", "t4", "--capacity", "80GiB")
                         ["assumptions"]["attention_runs"], "flash")
        self.assertEqual(self.ok_json(*fit, "--gpu", "t4", "--capacity", "80GiB",
                                      "--no-sdpa-gqa-math")["assumptions"]["attention_runs"],
                         "flash")

    def test_dora_weight_norm_temporaries(self):
        """--dora as PEFT computes the weight norm: the largest adapted linear's temporaries
        (Llama 3.1 8B down_proj: 14,336^2 x 2 + 14,336 x 4,096 x 6 bytes in bf16) are the
        dequantized-weight slot's, in forward and backward."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--lora-targets", "all",
                "--context", "256", "--recompute", "full")
        plain = self.ok_json(*args)
        dora = self.ok_json(*args, "--dora")
        peak = 14336 * 14336 * 2 + 14336 * 4096 * 6
        self.assertEqual(plain["dequant_bytes"], 0)
        self.assertEqual(dora["dequant_bytes"], peak)
        self.assertGreaterEqual(dora["forward_bytes"] - plain["forward_bytes"], peak)

    def test_expandable_segments_drop_the_losss_stranded_logits_block(self):
        """The caching allocator strands the freed bf16 logits the upcast-freed loss's fp32
        gradients cannot use (2 x 1,024 x 128,256 bytes for Llama 3.1 8B LoRA at 1,024
        tokens): reserved, never allocated; --expandable-segments (PyTorch's
        expandable_segments:True) strands nothing. The torchtitan profile sets it; the
        flag is refused for inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--context", "1024",
                "--loss", "upcast-freed", "--fragmentation", "0")
        on = self.ok_json(*args)
        off = self.ok_json(*args, "--expandable-segments")
        self.assertEqual(on["stranded_bytes"], 2 * 1024 * 128256)
        self.assertEqual(off["stranded_bytes"], 0)
        self.assertEqual(on["peak_allocated_bytes"], off["peak_allocated_bytes"])
        self.assertEqual(on["peak_reserved_bytes"] - off["peak_reserved_bytes"],
                         2 * 1024 * 128256)
        self.assertIs(on["assumptions"]["expandable_segments"], False)
        self.assertIs(off["assumptions"]["expandable_segments"], True)
        tt = self.ok_json("memory", "--config", cfg, "--mode", "full", "--context", "1024",
                          "--framework", "torchtitan")
        self.assertIs(tt["assumptions"]["expandable_segments"], True)
        self.assertEqual(tt["stranded_bytes"], 0)
        self.bad("memory", "--config", cfg, "--expandable-segments",
                 mentions="expandable-segments")

    def test_residual_fp32_stores_fp32_checkpoints_on_a_quantized_base(self):
        """PEFT's k-bit preparation leaves fp32 norms and bitsandbytes' linears return their
        input's dtype: the stream between layers is fp32, so under full recomputation each
        of Llama 3.1 8B's 32 checkpoints at 1,024 tokens holds 1,024 x 4,096 x 4 bytes, 2
        more an element than bf16. hf-trainer+peft sets it (and drops the logits before the
        rebuild, as every Trainer profile); --no-residual-fp32 turns it off; refused for
        inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "qlora", "--context", "1024",
                "--recompute", "full")
        off = self.ok_json(*args)
        on = self.ok_json(*args, "--residual-fp32")
        self.assertEqual(on["forward_bytes"] - off["forward_bytes"], 32 * 1024 * 4096 * 2)
        self.assertIs(off["assumptions"]["residual_fp32"], False)
        self.assertIs(on["assumptions"]["residual_fp32"], True)
        fw = self.ok_json(*args, "--framework", "hf-trainer+peft")
        self.assertIs(fw["assumptions"]["residual_fp32"], True)
        self.assertIs(fw["assumptions"]["logits_freed"], True)
        no = self.ok_json(*args, "--framework", "hf-trainer+peft", "--no-residual-fp32")
        self.assertEqual(fw["forward_bytes"] - no["forward_bytes"], 32 * 1024 * 4096 * 2)
        self.assertIs(self.ok_json(*args, "--framework", "ms-swift")["assumptions"]
                      ["residual_fp32"], False)
        self.bad("memory", "--config", cfg, "--residual-fp32", mentions="residual-fp32")
        # a plain base, or a recomputation other than full: refused, not ignored
        self.bad("memory", "--config", cfg, "--mode", "lora", "--residual-fp32",
                 mentions="quantized base")
        self.bad("memory", "--config", cfg, "--mode", "qlora", "--recompute", "selective",
                 "--residual-fp32", mentions="full recomputation")
        # ZeRO-3's held inputs below stage 3, fp32 copies of 32-bit gradients: refused
        fit = ("fit", "--config", cfg, "--mode", "full", "--gpus", "4", "--dp", "4",
               "--capacity", "1024GiB")
        self.bad(*fit, "--zero", "1", "--reduce-held-bytes", "4", mentions="ZeRO-3")
        self.bad(*fit, "--zero", "2", "--unsharded-grad-bytes", "4", mentions="ZeRO-3")
        self.ok_json(*fit, "--zero", "3", "--reduce-held-bytes", "4")
        self.bad("memory", "--config", cfg, "--mode", "full", "--gradients", "fp32",
                 "--grads-upcast-in-step", mentions="16-bit gradients")

    def test_fp8_inputs_saved_by_megatron_in_fp8(self):
        """Transformer Engine's linears under FP8 keep their FP8-cast inputs: with selective
        recomputation a Llama 3.1 8B layer keeps 2h + F + a d_v = 26,624 bytes a token
        less (1,024 tokens). fit sets it for --framework megatron with --precision fp8 in
        full training, not in bf16; --no-fp8-inputs-saved turns it off; refused for LoRA."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "1024",
                "--recompute", "selective")
        off = self.ok_json(*args)
        on = self.ok_json(*args, "--fp8-inputs-saved")
        self.assertIs(off["assumptions"]["fp8_inputs_saved"], False)
        self.assertIs(on["assumptions"]["fp8_inputs_saved"], True)
        self.assertEqual(off["activation_bytes"] - on["activation_bytes"],
                         32 * 1024 * (2 * 4096 + 14336 + 4096))
        fit = ("fit", "--config", cfg, "--capacity", "80GiB", "--gpus", "8", "--tp", "8",
               "--pp", "1", "--mode", "full", "--context", "1024", "--micro-batch", "1",
               "--recompute", "selective", "--framework", "megatron")
        f8 = self.ok_json(*fit, "--precision", "fp8")
        bf = self.ok_json(*fit, "--precision", "bf16")
        self.assertIs(f8["assumptions"]["fp8_inputs_saved"], True)
        self.assertIs(bf["assumptions"]["fp8_inputs_saved"], False)
        self.assertLess(f8["peak_allocated_bytes"], bf["peak_allocated_bytes"])
        no = self.ok_json(*fit, "--precision", "fp8", "--no-fp8-inputs-saved")
        self.assertIs(no["assumptions"]["fp8_inputs_saved"], False)
        self.assertEqual(no["peak_allocated_bytes"], bf["peak_allocated_bytes"])
        self.bad("memory", "--config", cfg, "--mode", "lora", "--fp8-inputs-saved",
                 mentions="fp8-inputs-saved")

    def test_grads_upcast_in_step_with_megatron_bf16_gradients(self):
        """Megatron-Core's optimizer step copies 16-bit gradients to fp32: the megatron
        profile with --gradients bf16 adds 4 bytes a trained parameter to the step phase
        (Llama 3.1 8B, one card); --no-grads-upcast-in-step (its precision-aware
        optimizer) removes them; refused for inference."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("memory", "--config", cfg, "--mode", "full", "--context", "512",
                "--framework", "megatron", "--gradients", "bf16")
        on = self.ok_json(*args)
        off = self.ok_json(*args, "--no-grads-upcast-in-step")
        self.assertIs(on["assumptions"]["grads_upcast_in_step"], True)
        self.assertIs(off["assumptions"]["grads_upcast_in_step"], False)
        self.assertEqual(on["step_bytes"] - off["step_bytes"], 4 * on["trainable_params"])
        self.bad("memory", "--config", cfg, "--grads-upcast-in-step",
                 mentions="grads-upcast-in-step")

    def test_trained_fp32_under_zero_becomes_master_weights(self):
        """trained_fp32 under ZeRO: DeepSpeed's engine casts the module back to 16 bits
        (runtime/engine.py _configure_distributed_model) and keeps fp32 master partitions,
        so LLaMA-Factory's fp32 parameters count bf16 weights and gradients and 4 + 8
        partitioned bytes of master and moments; without ZeRO they stay fp32 (4 + 4 + 8).
        Llama 3.1 8B full on 8 cards, 8,030,261,248 parameters."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        p = 8030261248
        args = ("fit", "--model", cfg, "--gpus", "8", "--dp", "8", "--mode", "full",
                "--context", "1024", "--recompute", "full", "--framework", "llama-factory",
                "--capacity", "1024GiB")
        b0 = self.ok_json(*args, "--zero", "0")["breakdown"]
        self.assertEqual((b0["weights_bytes"], b0["gradient_bytes"], b0["optimizer_bytes"]),
                         (4 * p, 4 * p, 8 * p))
        z1 = self.ok_json(*args, "--zero", "1")
        b1 = z1["breakdown"]
        self.assertEqual((b1["weights_bytes"], b1["gradient_bytes"], b1["optimizer_bytes"]),
                         (2 * p, 2 * p, 12 * p // 8))
        self.assertIs(z1["assumptions"]["trained_fp32"], True)
        b3 = self.ok_json(*args, "--zero", "3")["breakdown"]
        self.assertEqual(b3["weights_bytes"] + b3["gradient_bytes"] + b3["optimizer_bytes"],
                         16 * p // 8)

    def test_root_unsharded_keeps_the_tables_gathered(self):
        """Round 5 of issue #16: --root-unsharded keeps the embedding and head gathered beside
        the live layers under ZeRO-3 (FSDP's root unit); the fsdp profile sets it,
        --no-root-unsharded undoes it. Llama 3.1 8B full on 8 cards, ZeRO-3: tables
        2 x 525,336,576 + 4096 parameters, a layer 218,112,000, bf16; the gradients of the
        tables held together."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--config", cfg, "--mode", "full", "--gpus", "8", "--dp", "8",
                "--zero", "3", "--recompute", "full", "--capacity", "80GiB")
        tables, layer, head = 2 * 525336576 + 4096, 218112000, 525336576 + 4096
        base = self.ok_json(*args)["breakdown"]["buffer_bytes"]
        root = self.ok_json(*args, "--root-unsharded")
        self.assertEqual(root["breakdown"]["buffer_bytes"] - base,
                         (2 * tables + 4 * layer + 2 * tables) - (2 * head + 2 * layer + 2 * head))
        self.assertIs(root["assumptions"]["root_unsharded"], True)
        fsdp = self.ok_json(*args, "--framework", "fsdp")
        self.assertIs(fsdp["assumptions"]["root_unsharded"], True)
        self.assertIs(self.ok_json(*args, "--framework", "fsdp", "--no-root-unsharded")
                      ["assumptions"]["root_unsharded"], False)
        self.assertIs(self.ok_json(*args, "--framework", "deepspeed")
                      ["assumptions"]["root_unsharded"], False)
        self.bad("memory", "--config", cfg, "--root-unsharded", mentions="root-unsharded")

    def test_offload_after_load_counts_the_shards_while_loading(self):
        """Round 7 of issue #16: --offload-after-load (Accelerate's FSDP2
        cpu_ram_efficient_loading) counts a load phase of the card's parameter shards plus
        the largest unit whole before the parameter offload takes them. Llama 3.1 8B full
        on 8 cards, ZeRO-3, optimizer and parameters offloaded, 128 tokens: shards
        2 x 8,030,261,248 / 8 bytes, the head with the final norm 525,336,576 + 4096 bf16
        parameters."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--config", cfg, "--mode", "full", "--gpus", "8", "--dp", "8",
                "--zero", "3", "--recompute", "full", "--capacity", "80GiB", "--context", "128",
                "--offload", "optimizer,params")
        off = self.ok_json(*args)
        on = self.ok_json(*args, "--offload-after-load")
        load = 2 * 8030261248 // 8 + 2 * (525336576 + 4096)
        self.assertNotEqual(off["peak_phase"], "load")
        self.assertLess(off["peak_allocated_bytes"], load)
        self.assertEqual(on["peak_phase"], "load")
        self.assertEqual(on["peak_allocated_bytes"], load)
        self.assertIs(on["assumptions"]["offload_after_load"], True)
        self.assertIs(off["assumptions"]["offload_after_load"], False)
        self.assertEqual(on["phases"]["forward_bytes"], off["phases"]["forward_bytes"])

    def test_quant_scales_replicated_stay_on_every_card(self):
        """Round 6 of issue #16: --quant-scales-replicated keeps the NF4 block scales whole on
        every card under ZeRO-3 (bitsandbytes' QuantState is not a parameter: FSDP and
        DeepSpeed shard and offload the packed data only); the fsdp profile sets it for
        QLoRA, --no-quant-scales-replicated undoes it. Llama 3.1 8B QLoRA (nf4-dq) on 8
        cards with parameter offload: 32 layers x 13,312 blocks x 260 bytes of scales stay."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        args = ("fit", "--config", cfg, "--mode", "qlora", "--gpus", "8", "--dp", "8",
                "--zero", "3", "--offload", "params", "--recompute", "full",
                "--capacity", "80GiB")
        scales = 32 * 13312 * 260
        self.assertEqual(self.ok_json(*args)["breakdown"]["weights_bytes"], 0)
        on = self.ok_json(*args, "--quant-scales-replicated")
        self.assertEqual(on["breakdown"]["weights_bytes"], scales)
        self.assertIs(on["assumptions"]["quant_scales_replicated"], True)
        fsdp = self.ok_json(*args, "--framework", "fsdp")
        self.assertIs(fsdp["assumptions"]["quant_scales_replicated"], True)
        self.assertEqual(fsdp["breakdown"]["weights_bytes"], scales)
        self.assertIs(self.ok_json(*args, "--framework", "fsdp", "--no-quant-scales-replicated")
                      ["assumptions"]["quant_scales_replicated"], False)
        self.assertIs(self.ok_json(*args, "--framework", "torchtune")
                      ["assumptions"]["quant_scales_replicated"], False)
        self.bad("memory", "--config", cfg, "--quant-scales-replicated",
                 mentions="quant-scales-replicated")

    def test_no_flag_switches_off_the_profiles_choice(self):
        """--no-X is X given false: it turns off what a framework profile turns on, while X
        not given leaves the profile's choice (issue #16: every profile input alone)."""
        import os
        from clitest import TEST_DATA
        cfg = os.path.join(TEST_DATA, "models", "llama-3.2-1b.config.json")
        args = ("memory", "--config", cfg, "--mode", "lora", "--framework", "litgpt")
        lit = self.ok_json(*args)
        off = self.ok_json(*args, "--no-untied-head")
        self.assertIs(lit["assumptions"]["untied_head"], True)
        self.assertIs(off["assumptions"]["untied_head"], False)
        self.assertEqual(lit["weights_bytes"] - off["weights_bytes"], 128256 * 2048 * 2)
        # the Trainer's QLoRA keeps the 4-bit inputs; --no-qlora-inputs-kept takes them off
        # and gives the peak of the same profile with the input not set
        q = ("memory", "--config", cfg, "--mode", "qlora", "--framework", "hf-trainer+peft")
        self.assertIs(self.ok_json(*q)["assumptions"]["qlora_inputs_kept"], True)
        self.assertIs(self.ok_json(*q, "--no-qlora-inputs-kept")["assumptions"]
                      ["qlora_inputs_kept"], False)
        # the last one given wins, as for any option
        self.assertIs(self.ok_json(*args, "--no-untied-head", "--untied-head")
                      ["assumptions"]["untied_head"], True)
        self.assertIn("--no-FLAG", self.ok_table("memory", "--help"))
        self.bad("memory", "--config", cfg, "--no-untied-head=1")
        self.bad("memory", "--config", cfg, "--no-no-dropout")
        self.bad("memory", "--config", cfg, "--no-context")


if __name__ == "__main__":
    unittest.main()


class TestMultiNode(CliCase):

    def test_jobs_beyond_one_node_need_the_network(self):
        import os
        cfg = os.path.join(os.environ.get("HWFIT_TEST_DATA", ""), "models",
                           "llama-3.1-8b.config.json")
        self.bad("plan", "--config", cfg, "--gpu", "h100-sxm", "--gpus", "16", "--mode",
                 "full", mentions="--nic")
        d = self.ok_json("plan", "--config", cfg, "--gpu", "h100-sxm", "--gpus", "16",
                         "--mode", "full", "--nic", "8x400g-ib", "--top", "3")
        self.assertTrue(d["layouts"])
