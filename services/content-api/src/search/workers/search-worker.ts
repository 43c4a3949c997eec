import { parentPort } from 'node:worker_threads';
import { FacetDictionary } from '../segments/facet-dictionary.js';
import { searchSegments, type SegmentSearchResult } from '../segments/segment-search.js';
import { SegmentSnapshot } from '../segments/segment-snapshot.js';
import { Segment, type FacetCountsCell } from '../segments/segment.js';
import type { FromWorker, ToWorker } from './search-messages.js';

/**
 * A search worker (decision 0051): runs `searchSegments` over snapshots whose columns it shares
 * with the main thread. Snapshots are kept by id, the last few posted (a search may still come
 * for the one before); segments by the main thread's id, so their whole-shop facet counts
 * survive a snapshot that kept them, and those counts by the id of their cell, so they survive a
 * delta that kept the facet columns too.
 */
const KEPT_SNAPSHOTS = 3;
/** Results waiting for their descriptions; the oldest are dropped beyond this (a search abandoned). */
const KEPT_PENDING = 256;

const port = parentPort;
if (!port) throw new Error('search-worker runs as a worker thread');

const dictionary = new FacetDictionary();
const snapshots = new Map<
  number,
  { snapshot: SegmentSnapshot; segments: Map<number, Segment>; cells: Map<number, FacetCountsCell> }
>();
const pending = new Map<number, SegmentSearchResult>();

function reply(message: FromWorker): void {
  port!.postMessage(message);
}

function handle(message: ToWorker): void {
  switch (message.type) {
    case 'snapshot': {
      for (const entry of message.entries) if (entry.key > dictionary.maxKey) dictionary.add(entry);
      const known = new Map<number, Segment>();
      const knownCells = new Map<number, FacetCountsCell>();
      for (const kept of snapshots.values()) {
        for (const [id, segment] of kept.segments) known.set(id, segment);
        for (const [id, cell] of kept.cells) knownCells.set(id, cell);
      }
      const segments = new Map<number, Segment>();
      const cells = new Map<number, FacetCountsCell>();
      for (const posted of message.segments) {
        const segment =
          known.get(posted.id) ??
          new Segment(
            posted.header,
            posted.columns,
            posted.idRank,
            cells.get(posted.facets) ?? knownCells.get(posted.facets),
          );
        segments.set(posted.id, segment);
        cells.set(posted.facets, segment.facetCountsCell);
      }
      snapshots.set(message.id, {
        snapshot: new SegmentSnapshot(message.hash, [...segments.values()], dictionary),
        segments,
        cells,
      });
      for (const id of snapshots.keys()) if (snapshots.size > KEPT_SNAPSHOTS) snapshots.delete(id);
      return;
    }
    case 'search': {
      const kept = snapshots.get(message.snapshot);
      if (!kept) throw new Error(`snapshot ${message.snapshot} was not posted to this worker`);
      const result = searchSegments({
        snapshot: kept.snapshot,
        query: message.query,
        matches: message.matches,
        classes: message.classes,
      });
      const needs = result.descriptionSeqs.length > 0;
      if (needs) {
        pending.set(message.id, result);
        for (const id of pending.keys()) if (pending.size > KEPT_PENDING) pending.delete(id);
      }
      reply({
        type: 'result',
        id: message.id,
        total: result.total,
        facets: result.facets,
        descriptionSeqs: result.descriptionSeqs,
        hits: needs ? undefined : result.hits(new Map()),
      });
      return;
    }
    case 'hits': {
      const result = pending.get(message.id);
      if (!result) throw new Error(`search ${message.id} is not waiting for descriptions`);
      pending.delete(message.id);
      reply({ type: 'hits', id: message.id, hits: result.hits(message.descriptions) });
      return;
    }
  }
}

port.on('message', (message: ToWorker) => {
  try {
    handle(message);
  } catch (error) {
    if (message.type === 'snapshot') throw error; // the worker is of no use without it: it exits, and is replaced
    reply({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
});
