import type { Tokenizer } from '@orama/orama';
import { tokenizer as oramaTokenizer } from '@orama/orama/components';
import { stopwords as englishStopwords } from '@orama/stopwords/english';
import { stopwords as mandarinStopwords } from '@orama/stopwords/mandarin';
import { createTokenizer as createMandarin } from '@orama/tokenizers/mandarin';

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}]+/gu;

/**
 * Skills are written in English and in Chinese, often mixed ("在 GitHub 上创建 issue"). Orama takes
 * one tokenizer per index, so this one sends CJK runs to Orama's Mandarin tokenizer (word
 * segmentation with Intl.Segmenter, plus character bigrams) and the rest to its English tokenizer (stemming, stop words).
 */
export function bilingualTokenizer(): Tokenizer {
  // Orama's English list lacks "a"; "please" carries no meaning in a task either.
  const english = oramaTokenizer.createTokenizer({ language: 'english', stemming: true, stopWords: [...englishStopwords, 'a', 'please'] });
  const mandarin = createMandarin({ language: 'mandarin' });
  const zhStop = new Set(mandarinStopwords);
  const tokenize = (raw: string, _language?: string, prop?: string, withCache?: boolean): string[] => {
    if (typeof raw !== 'string') return [raw];
    const out: string[] = [];
    let last = 0;
    for (const m of raw.matchAll(CJK)) {
      out.push(...english.tokenize(raw.slice(last, m.index), undefined, prop, withCache));
      out.push(...mandarin.tokenize(m[0], undefined, prop).filter((t) => !zhStop.has(t)));
      // Character bigrams too: the segmenter's dictionary splits names it does not know (淘宝 → 淘 宝),
      // and the same name can split differently in the skill and in the task.
      for (let i = 0; i + 1 < m[0].length; i++) out.push(m[0].slice(i, i + 2));
      last = m.index + m[0].length;
    }
    out.push(...english.tokenize(raw.slice(last), undefined, prop, withCache));
    return [...new Set(out.filter(Boolean))];
  };
  return { language: 'english', normalizationCache: english.normalizationCache, tokenize };
}
