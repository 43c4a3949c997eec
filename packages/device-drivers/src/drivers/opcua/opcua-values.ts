/**
 * An OPC UA DataValue as a reading: the value in plain JSON terms (the collector converts it to
 * the datapoint's declared type, decision 0045), the source timestamp, and quality `bad` with a
 * `null` value for any status that is not Good (the status name goes to the driver's log).
 */
import type { DataType, DataValue, Variant } from 'node-opcua-client';
import type { DatapointUpdate } from '@triad/device-templates';
import type { PointRequest } from '../../driver.js';
import { opcuaLibrary } from './opcua-library.js';

/** The reading of `point` from `dataValue`; `report` hears why a value is bad. */
export function readingOf(
  point: PointRequest,
  dataValue: DataValue,
  report: (message: string) => void,
  now = Date.now(),
): DatapointUpdate {
  const status = dataValue.statusCode;
  const timestamp = dataValue.sourceTimestamp?.getTime() ?? dataValue.serverTimestamp?.getTime() ?? now;
  const base = { datapointSetId: point.datapointSetId, datapointId: point.datapointId };
  if (!status.isGood()) {
    report(`${point.datapointSetId}/${point.datapointId} (${point.originAddress}): the server says ${status.name}`);
    return { ...base, rawValue: null, quality: 'bad', timestamp: Number.isFinite(timestamp) ? timestamp : now };
  }
  return {
    ...base,
    rawValue: plainVariant(dataValue.value),
    quality: 'good',
    timestamp: Number.isFinite(timestamp) ? timestamp : now,
  };
}

/** A bad reading with `reason` (a node that cannot be found, an item the server refused). */
export function badReading(point: PointRequest, now = Date.now()): DatapointUpdate {
  return {
    datapointSetId: point.datapointSetId,
    datapointId: point.datapointId,
    rawValue: null,
    quality: 'bad',
    timestamp: now,
  };
}

/**
 * A Variant's value in JSON terms: numbers, texts and booleans as they are; 64-bit integers as
 * numbers when exact, else as decimal text; DateTime as ISO 8601 text; LocalizedText as its
 * text; QualifiedName as `ns:name` (just `name` in namespace 0); NodeId, ExpandedNodeId and Guid as
 * text; ByteString as base64; StatusCode as its name; structures as plain objects; arrays as lists.
 */
export function plainVariant(variant: Variant): unknown {
  if (variant.arrayType === opcuaLibrary().VariantArrayType.Scalar) return plainScalar(variant.dataType, variant.value);
  const items: unknown[] = Array.from(variant.value as ArrayLike<unknown>);
  return items.map((item) => plainScalar(variant.dataType, item));
}

function plainScalar(dataType: DataType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const { DataType } = opcuaLibrary();
  switch (dataType) {
    case DataType.Int64:
    case DataType.UInt64:
      return int64(value, dataType === DataType.Int64);
    case DataType.DateTime:
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : null;
    case DataType.ByteString:
      return Buffer.isBuffer(value) ? value.toString('base64') : null;
    case DataType.LocalizedText:
      return (value as { text?: string | null }).text ?? null;
    case DataType.QualifiedName: {
      const { namespaceIndex, name } = value as { namespaceIndex: number; name?: string | null };
      return namespaceIndex === 0 ? (name ?? '') : `${namespaceIndex}:${name ?? ''}`;
    }
    case DataType.StatusCode:
      return (value as { name: string }).name;
    case DataType.NodeId:
    case DataType.ExpandedNodeId:
    case DataType.Guid:
      return (value as { toString(): string }).toString();
    case DataType.ExtensionObject:
    case DataType.DataValue:
    case DataType.DiagnosticInfo:
      return plainObject(value);
    case DataType.Variant:
      return plainVariant(value as Variant);
    case DataType.Null:
    case DataType.Boolean:
    case DataType.SByte:
    case DataType.Byte:
    case DataType.Int16:
    case DataType.UInt16:
    case DataType.Int32:
    case DataType.UInt32:
    case DataType.Float:
    case DataType.Double:
    case DataType.String:
    case DataType.XmlElement:
      return value;
  }
}

/** node-opcua gives 64-bit integers as `[high, low]` 32-bit halves. */
function int64(value: unknown, signed: boolean): number | string | null {
  if (typeof value === 'number' || typeof value === 'bigint') return int64Text(BigInt(value));
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [high, low] = value as [number, number];
  let big = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  if (signed && high >>> 0 >= 0x8000_0000) big -= 1n << 64n;
  return int64Text(big);
}

/** A 64-bit integer as a number when exact, else as decimal text. */
function int64Text(big: bigint): number | string {
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big.toString();
}

function plainObject(value: unknown): unknown {
  const json = (value as { toJSON?: () => unknown }).toJSON?.() ?? value;
  return JSON.parse(JSON.stringify(json, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));
}
