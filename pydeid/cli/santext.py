"""`pydeid santext`: sanitise every word of a data dir's text with SanText or SanText+ (seed 003)."""

COMMAND = "santext"
HELP = "SanText / SanText+ word sanitisation (exponential mechanism over embedding distances), N_x/S_x/S_y report"


def add_arguments(p):
    p.add_argument("--epsilon", type=float, default=3.0)
    p.add_argument("--plus", action="store_true", help="SanText+: sensitive = w least frequent words, coin p")
    p.add_argument("--p", type=float, default=0.3, help="SanText+: probability a non-sensitive word is sanitised")
    p.add_argument("--w", type=float, default=0.9, help="SanText+: fraction of least frequent words that are sensitive")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--vectors", default=None, help="local KeyedVectors/word2vec file (default: train on the text)")
    p.add_argument("--vectors-dim", type=int, default=100)
    p.add_argument("--freq-text", default=None, help="Kaldi text file whose word frequencies decide sensitivity "
                                                     "(default: the input text)")
    p.add_argument("--cache-dir", default=None, help="where probability tables are cached (keyed by a hash)")
    p.add_argument("--stats-runs", type=int, default=50, help="sanitisations per word for N_x, S_x, S_y")
    p.add_argument("data", help="input data dir")
    p.add_argument("out_data", help="output data dir (sanitised text; tags.conll kept position by position)")


def run(args):
    import logging
    import time
    logging.getLogger("gensim").setLevel(logging.WARNING)
    from collections import Counter

    from pydeid.io.conll import Sentence
    from pydeid.text.datadir import load_tagged_text, read_text, write_transformed_dir
    from pydeid.text.santext import SanText, SanTextConfig, corpus_vectors

    from pathlib import Path
    tags = Path(args.data) / "tags.conll"
    utts, sents = load_tagged_text(args.data, tags if tags.exists() else None)
    token_lists = [s.tokens for s in sents]
    vocab, vecs = corpus_vectors(token_lists, dim=args.vectors_dim, seed=args.seed, vectors_path=args.vectors)
    freq_src = read_text(Path(args.freq_text).parent).values() if args.freq_text else token_lists
    freq = Counter(t for toks in freq_src for t in toks)
    t0 = time.time()
    st = SanText(vocab, vecs, freq, SanTextConfig(args.epsilon, args.plus, args.p, args.w, args.seed),
                 cache_dir=args.cache_dir)
    t_build = time.time() - t0
    t0 = time.time()
    flat = [t for s in sents for t in s.tokens]          # one vectorised draw for the whole corpus
    new = st.sanitize(flat)
    oov = sum(t not in st.index for t in flat)
    out, k = [], 0
    for s in sents:
        out.append(Sentence(new[k:k + len(s.tokens)], list(s.tags), s.id))
        k += len(s.tokens)
    n_tok = len(flat)
    t_samp = time.time() - t0
    write_transformed_dir(args.data, args.out_data, out)
    stats = st.privacy_stats(runs=args.stats_runs)
    print(st.guarantee())
    print(f"|V|={stats['V']} |V_S|={stats['V_S']} |V_N|={stats['V_N']}; tables {'from cache' if st.cache_hit else 'built'}"
          f" in {t_build:.2f} s; sampled {n_tok} tokens in {t_samp:.3f} s ({n_tok / max(t_samp, 1e-9):.0f} tokens/s); "
          f"{oov} tokens without a vector kept")
    print(f"N_x median {stats['N_x']['median']:.3f} mean {stats['N_x']['mean']:.3f} (exact mean "
          f"{stats['N_x_exact']['mean']:.3f}); S_x median {stats['S_x']['median']:.1f}; S_y median "
          f"{stats['S_y']['median']:.1f} ({args.stats_runs} runs per word)")
    return 0
