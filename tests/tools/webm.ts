/**
 * A small WebM (Matroska/EBML) writer and reader for one VP9 video track, used by the teaser
 * maker (tests/tools/make-teaser.ts) and by the tests that check the committed video.
 *
 * The writer lays out: EBML header, then a Segment of known size holding Info (with the
 * Duration), Tracks, Cues (one per key frame, so a player seeks without scanning) and one
 * Cluster per key frame, each frame a SimpleBlock.
 */

const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeVersion: 0x4287,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  MuxingApp: 0x4d80,
  WritingApp: 0x5741,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackUID: 0x73c5,
  TrackType: 0x83,
  FlagLacing: 0x9c,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
} as const;

// ---------------------------------------------------------------- writing

function idBytes(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes);
}

/** An EBML size field: the shortest form, or exactly `length` bytes when given. */
function sizeBytes(value: number, length?: number): Buffer {
  let n = length ?? 1;
  if (length === undefined) while (value >= 2 ** (7 * n) - 1) n++;
  if (value >= 2 ** (7 * n) - 1) throw new Error(`${value} does not fit a ${n}-byte EBML size`);
  const out = Buffer.alloc(n);
  let v = value;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] |= 0x80 >> (n - 1);
  return out;
}

function el(id: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([idBytes(id), sizeBytes(body.length), body]);
}

/** An unsigned integer element, in `width` bytes (fewest needed when not given). */
function uint(id: number, value: number, width?: number): Buffer {
  let n = width ?? 1;
  if (width === undefined) while (value >= 2 ** (8 * n)) n++;
  const b = Buffer.alloc(n);
  let v = value;
  for (let i = n - 1; i >= 0; i--) {
    b[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return el(id, b);
}

function float(id: number, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(value);
  return el(id, b);
}

const text = (id: number, value: string) => el(id, Buffer.from(value, 'utf8'));

export interface EncodedFrame {
  /** presentation time, milliseconds from the start */
  timeMs: number;
  key: boolean;
  data: Buffer;
}

export interface WebmTrack {
  width: number;
  height: number;
  /** the whole video's length, ms (the last frame is held until then) */
  durationMs: number;
  /** the VP9 frames, in order, starting with a key frame */
  frames: EncodedFrame[];
  writingApp: string;
}

/** Muxes VP9 frames into a WebM file. */
export function muxWebm(track: WebmTrack): Buffer {
  const { frames } = track;
  if (!frames.length || !frames[0].key) throw new Error('A WebM video must start with a key frame.');
  // one Cluster per key frame (a SimpleBlock's time is a signed 16-bit offset from its Cluster's)
  const groups: EncodedFrame[][] = [];
  for (const f of frames) {
    if (f.key || !groups.length || f.timeMs - groups[groups.length - 1][0].timeMs > 30_000) groups.push([]);
    groups[groups.length - 1].push(f);
  }
  const clusters = groups.map((group) => {
    const start = Math.round(group[0].timeMs);
    const blocks = group.map((f) => {
      const head = Buffer.alloc(4);
      head[0] = 0x81; // track 1
      head.writeInt16BE(Math.round(f.timeMs) - start, 1);
      head[3] = f.key ? 0x80 : 0x00;
      return el(ID.SimpleBlock, head, f.data);
    });
    return { time: start, bytes: el(ID.Cluster, uint(ID.Timecode, start), ...blocks) };
  });

  const ebml = el(
    ID.EBML,
    uint(ID.EBMLVersion, 1),
    uint(ID.EBMLReadVersion, 1),
    uint(ID.EBMLMaxIDLength, 4),
    uint(ID.EBMLMaxSizeLength, 8),
    text(ID.DocType, 'webm'),
    uint(ID.DocTypeVersion, 4),
    uint(ID.DocTypeReadVersion, 2),
  );
  const info = el(
    ID.Info,
    uint(ID.TimecodeScale, 1_000_000),
    float(ID.Duration, track.durationMs),
    text(ID.MuxingApp, 'flowmatic webm.ts'),
    text(ID.WritingApp, track.writingApp),
  );
  const tracks = el(
    ID.Tracks,
    el(
      ID.TrackEntry,
      uint(ID.TrackNumber, 1),
      uint(ID.TrackUID, 1),
      uint(ID.TrackType, 1),
      uint(ID.FlagLacing, 0),
      text(ID.CodecID, 'V_VP9'),
      el(ID.Video, uint(ID.PixelWidth, track.width), uint(ID.PixelHeight, track.height)),
    ),
  );
  // Cues come before the Clusters, so their positions are written in a fixed 8 bytes: the Cues'
  // own size is then known before the positions are
  const cues = (firstCluster: number) => {
    let pos = firstCluster;
    return el(
      ID.Cues,
      ...clusters.map((c) => {
        const point = el(ID.CuePoint, uint(ID.CueTime, c.time), el(ID.CueTrackPositions, uint(ID.CueTrack, 1), uint(ID.CueClusterPosition, pos, 8)));
        pos += c.bytes.length;
        return point;
      }),
    );
  };
  const cueBytes = cues(0).length;
  const body = Buffer.concat([info, tracks, cues(info.length + tracks.length + cueBytes), ...clusters.map((c) => c.bytes)]);
  return Buffer.concat([ebml, el(ID.Segment, body)]);
}

// ---------------------------------------------------------------- reading

interface Element {
  id: number;
  dataStart: number;
  size: number | undefined;
}

function readVint(buf: Buffer, pos: number, keepMarker: boolean): { value: number; length: number; allOnes: boolean } {
  const first = buf[pos];
  if (first === undefined) throw new Error(`Not a WebM file: it ends inside an element at byte ${pos}.`);
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8) throw new Error(`Not a WebM file: bad variable-length number at byte ${pos}.`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buf[pos + i];
    if (byte === undefined) throw new Error(`Not a WebM file: it ends inside an element at byte ${pos}.`);
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, allOnes };
}

/** Masters walked into (their size may be "unknown" in a streamed file, e.g. MediaRecorder's). */
const DESCEND = new Set<number>([
  ID.Segment,
  ID.Info,
  ID.Tracks,
  ID.TrackEntry,
  ID.Video,
  ID.Cues,
  ID.CuePoint,
  ID.CueTrackPositions,
  ID.Cluster,
  ID.BlockGroup,
]);

function* walk(buf: Buffer): Generator<Element> {
  let pos = 0;
  while (pos < buf.length) {
    const id = readVint(buf, pos, true);
    const size = readVint(buf, pos + id.length, false);
    const e = { id: id.value, dataStart: pos + id.length + size.length, size: size.allOnes ? undefined : size.value };
    yield e;
    if (DESCEND.has(e.id)) pos = e.dataStart;
    else if (e.size === undefined) throw new Error(`Not a WebM file this reader knows: element 0x${e.id.toString(16)} of unknown size.`);
    else pos = e.dataStart + e.size;
  }
}

export interface WebmSummary {
  docType: string;
  codec: string;
  width: number;
  height: number;
  /** the Duration written in the Segment Info (ms), undefined when there is none */
  durationMs: number | undefined;
  /** the time of the last frame (ms) */
  lastFrameMs: number;
  frames: number;
  keyFrames: number;
  cuePoints: number;
}

/** What a WebM file holds: codec, size, written duration, frames and cue points. */
export function readWebm(buf: Buffer): WebmSummary {
  const s: WebmSummary = { docType: '', codec: '', width: 0, height: 0, durationMs: undefined, lastFrameMs: 0, frames: 0, keyFrames: 0, cuePoints: 0 };
  let scale = 1_000_000;
  let duration: number | undefined;
  let cluster = 0;
  const uintAt = (e: Element) => (e.size ? buf.readUIntBE(e.dataStart, Math.min(e.size, 6)) : 0);
  const strAt = (e: Element) => buf.toString('utf8', e.dataStart, e.dataStart + (e.size ?? 0));
  // the EBML header is one element before the Segment
  const header = walk(buf).next().value;
  if (!header || header.id !== ID.EBML || header.size === undefined) throw new Error('Not a WebM file: no EBML header.');
  for (const e of walk(buf.subarray(header.dataStart, header.dataStart + header.size))) {
    if (e.id === ID.DocType) s.docType = buf.toString('utf8', header.dataStart + e.dataStart, header.dataStart + e.dataStart + (e.size ?? 0));
  }
  for (const e of walk(buf)) {
    switch (e.id) {
      case ID.TimecodeScale:
        scale = uintAt(e);
        break;
      case ID.Duration:
        duration = e.size === 4 ? buf.readFloatBE(e.dataStart) : buf.readDoubleBE(e.dataStart);
        break;
      case ID.CodecID:
        s.codec = strAt(e);
        break;
      case ID.PixelWidth:
        s.width = uintAt(e);
        break;
      case ID.PixelHeight:
        s.height = uintAt(e);
        break;
      case ID.CuePoint:
        s.cuePoints++;
        break;
      case ID.Timecode:
        cluster = uintAt(e);
        break;
      case ID.Block:
      case ID.SimpleBlock: {
        const track = readVint(buf, e.dataStart, false);
        const time = cluster + buf.readInt16BE(e.dataStart + track.length);
        s.frames++;
        // a SimpleBlock flags its key frames; a Block (in a BlockGroup) does not say
        if (e.id === ID.SimpleBlock && buf[e.dataStart + track.length + 2] & 0x80) s.keyFrames++;
        s.lastFrameMs = Math.max(s.lastFrameMs, (time * scale) / 1_000_000);
        break;
      }
    }
  }
  s.durationMs = duration === undefined ? undefined : (duration * scale) / 1_000_000;
  return s;
}
