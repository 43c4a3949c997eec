import { useEffect, useRef, useState } from 'preact/hooks';
import { PAGE_SIZES, type CatalogSearch } from './catalog-search.js';
import type { SuggestReply } from './catalog-wire.js';
import { sortsByPrice } from './price-sort-currency.js';
import { sameQuery, suggestionOptions, type SuggestionOption } from './suggestions.js';
import { formatCount } from './units.js';
import { useFocusWhenLost } from './use-focus-when-lost.js';

export interface SearchFormProps {
  readonly search: CatalogSearch;
  /** Currencies of the shops, for the currency choice. */
  readonly currencies: readonly string[];
  /** The currency a price sort over "Any" uses (`priceSortCurrency`); undefined when none was chosen. */
  readonly autoCurrency?: string | undefined;
  /**
   * Runs the changed search from its first page; `typing`: a search run while the buyer types,
   * which replaces the one typed before it in the history rather than adding a step.
   */
  readonly onSearch: (search: CatalogSearch, how?: { readonly typing: boolean }) => void;
  /** Completions and corrections of the last word of `q` (`GET /api/suggest`); absent: no list. */
  readonly suggest?: (q: string, signal: AbortSignal) => Promise<SuggestReply>;
}

const SORTS: readonly (readonly [string, string])[] = [
  ['', 'Relevance'],
  ['+price', 'Price, lowest first'],
  ['-price', 'Price, highest first'],
  ['+description', 'Description, A to Z'],
  ['+manufacturerName', 'Manufacturer, A to Z'],
  ['+id', 'Article id'],
];

/** Quiet time after a keystroke before the text is searched and suggestions are asked for, ms. */
export const TYPING_PAUSE_MS = 200;
/** Shortest text suggestions are asked for, letters. */
const SUGGEST_FROM = 2;
const LIST_ID = 'search-suggestions';
const optionId = (i: number) => `search-suggestion-${i}`;

/**
 * The search box with the sort, currency and page-size choices. Text is searched as it is typed
 * (after `TYPING_PAUSE_MS` of quiet, only when it searches something else than the page shows)
 * and on submit; the choices apply at once. The box is a combobox (WAI-ARIA pattern, list
 * autocomplete): its list offers completions and corrections of the last word, walked with the
 * arrow keys (the box keeps the focus, `aria-activedescendant` names the option), chosen with
 * Enter or a click, closed with Escape.
 */
export function SearchForm({ search, currencies, autoCurrency, onSearch, suggest }: SearchFormProps) {
  const [text, setText] = useState(search.q);
  const [options, setOptions] = useState<readonly SuggestionOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = useRef(options);
  shown.current = options;
  // Arriving from the sign-in form (whose button is gone), a keyboard user starts at the box.
  const box = useFocusWhenLost<HTMLInputElement>('shown');
  /** The text last searched from this box, and whether the buyer has typed since the page showed `search`. */
  const sent = useRef(search.q);
  const typed = useRef(false);
  /** Whether a typed search already added a step to the history since the last submit or choice. */
  const stepped = useRef(false);
  /** The text the list shows suggestions for. */
  const suggestedFor = useRef<string | undefined>(undefined);
  // A search from elsewhere (a facet, the back button) shows its own text; our own leaves the box alone.
  useEffect(() => {
    if (!sameQuery(search.q, sent.current)) {
      sent.current = search.q;
      typed.current = false;
      stepped.current = false;
      setText(search.q);
      setOpen(false);
    }
  }, [search.q]);

  const run = (members: Partial<CatalogSearch>, typing = false) => {
    const next = { ...search, q: text, ...members, offset: 0 };
    sent.current = next.q;
    onSearch(next, { typing });
  };
  const change = (members: Partial<CatalogSearch>) => run(members);

  // Search as the buyer types: after a pause, when the text searches something new.
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      if (sameQuery(text, sent.current)) return;
      run({}, stepped.current);
      stepped.current = true;
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  // Suggestions for the text, after the same pause; a newer text cancels the request before it.
  const shops = search.businessShopId.join('\n');
  useEffect(() => {
    if (!typed.current || !suggest) return;
    const letters = text.trim();
    if (letters.length < SUGGEST_FROM) {
      suggestedFor.current = undefined;
      setOptions([]);
      setOpen(false);
      return;
    }
    const key = `${shops}\n${text}`;
    if (suggestedFor.current === key) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      suggest(text, controller.signal).then(
        (reply) => {
          if (controller.signal.aborted) return;
          suggestedFor.current = key;
          const list = suggestionOptions(reply);
          const same = (a: readonly SuggestionOption[]) =>
            a.length === list.length && a.every((o, i) => o.text === list[i]?.text && o.kind === list[i]?.kind);
          // The same list again (a space typed and taken back) keeps the option the buyer is on.
          if (!same(shown.current)) {
            setOptions(list);
            setActive(-1);
          }
          setOpen(list.length > 0 && document.activeElement === box.current);
        },
        () => {
          // Suggestions are a help: without them the box still searches.
        },
      );
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, shops]);

  const choose = (option: SuggestionOption) => {
    setText(option.text);
    setOpen(false);
    setActive(-1);
    typed.current = false;
    stepped.current = false;
    suggestedFor.current = undefined;
    run({ q: option.text });
  };
  const expanded = open && options.length > 0;
  const onKeyDown = (event: KeyboardEvent) => {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      const down = event.key === 'ArrowDown';
      if (!expanded) {
        setOpen(true);
        setActive(down ? 0 : count - 1);
      } else setActive(active < 0 ? (down ? 0 : count - 1) : (active + (down ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter' && expanded && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const sort = SORTS.some(([value]) => value === search.sort) ? search.sort : '';
  const byPrice = sortsByPrice(search);
  const currency = search.currency || autoCurrency || '';
  return (
    <form
      role="search"
      class="catalog-search"
      onSubmit={(event) => {
        event.preventDefault();
        setOpen(false);
        typed.current = false;
        stepped.current = false;
        change({});
      }}
    >
      <div class="catalog-q">
        <label for="catalog-q">Search articles</label>
        <div class="combobox">
          <input
            id="catalog-q"
            ref={box}
            type="text"
            name="q"
            value={text}
            autocomplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={LIST_ID}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            onInput={(e) => {
              typed.current = true;
              setText(e.currentTarget.value);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              setOpen(false);
              setActive(-1);
            }}
            onFocus={() => {
              if (typed.current && options.length > 0) setOpen(true);
            }}
          />
          <ul id={LIST_ID} role="listbox" aria-label="Suggestions" class="suggestions" hidden={!expanded}>
            {options.map((option, i) => (
              <li
                key={`${option.kind}:${option.text}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'suggestion active' : 'suggestion'}
                // The box keeps the focus: a click chooses without blurring it first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(option)}
                onMouseMove={() => {
                  if (i !== active) setActive(i);
                }}
              >
                {option.kind === 'correction' ? <span class="suggestion-kind">Did you mean </span> : null}
                <span class="suggestion-text">{option.text}</span>
                <span class="suggestion-hits">
                  {formatCount(option.hits)} {option.hits === 1 ? 'article' : 'articles'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <button type="submit" class="primary">
        Search
      </button>
      <label>
        Sort by
        <select value={sort} onChange={(e) => change({ sort: e.currentTarget.value })}>
          {SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Currency
        <select
          value={currency}
          aria-describedby={autoCurrency === undefined ? undefined : 'price-sort-currency'}
          onChange={(e) => change({ currency: e.currentTarget.value })}
        >
          <option value="" disabled={byPrice}>
            {byPrice ? 'Any (not when sorting by price)' : 'Any'}
          </option>
          {[...new Set([...currencies, ...(currency ? [currency] : [])])].map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <label>
        Per page
        <select value={String(search.limit)} onChange={(e) => change({ limit: Number(e.currentTarget.value) })}>
          {[...new Set([...PAGE_SIZES, search.limit])].map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
