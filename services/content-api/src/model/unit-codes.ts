/**
 * The unit codes the content API accepts (the specification's table, UN/ECE Recommendation 20
 * style). Written as the spec writes it: `X<a>-X<b>` ranges, `except` lists and single codes.
 */
const UNIT_CODE_TABLE = `
04 05 06 08 10 11 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 40 41 43 44 45 46 47 48
53 54 56 57 58 59 60 61 62 63 64 66 69 71 72 73 74 76 77 78 80 81 84 85 87 89 90 91 92 93 94 95 96 97 98
1A 1B 1C 1D 1E 1F 1G 1H 1I 1J 1K 1L 1M 1X 2A 2B 2C 2G 2H 2I 2J 2K 2L 2M 2N 2P 2Q 2R 2U 2V 2W 2X 2Y 2Z
3B 3C 3E 3G 3H 3I 4A 4B 4C 4E 4G 4H 4K 4L 4M 4N 4O 4P 4Q 4R 4T 4U 4W 4X 5A 5B 5C 5E 5F 5G 5H 5I 5J 5K 5P 5Q
A1-A99 except A46 A72 A92; AA AB ACR ACT AD AE AH AI AJ AK AL AM AMH AMP ANN AP APZ AQ AR ARE AS ASM ASU ATM
ATT AV AW AWG AY AZ
B0-B99; BAR BB BD BE BFT BG BH BHP BIL BJ BK BL BLD BLL BO BP BPM BQL BR BT BTU BUA BUI BW BX BZ
C0-C99; CA CCT CDL CEL CEN CG CGM CH CJ CK CKG CL CLF CLT CMK CMQ CMT CNP CNT CO COU CQ CR CS CT CTG CTM CTN
CU CUR CV CWA CWI CY CZ
D03 D04 D1 D2 D5 D6 D7 D8 D9; D10-D99 except D84; DAA DAD DAY DB DC DD DE DEC DG DI DJ DLT DMA DMK DMO DMQ DMT
DN DPC DPR DPT DQ DR DRA DRI DRL DRM DS DT DTN DU DWT DX DY DZN DZP
E01 E07 E08 E09 E2 E3 E4 E5 E10 E11 E12 E14-E23 E25 E27 E28 E30-E99; EA EB EC EP EQ EV
F01-F08 F1 F10-F99; FAH FAR FB FBM FC FD FE FF FG FH FIT FL FM FOT FP FR FS FTK FTQ
G01 G04 G05 G06 G08 G09 G2 G3 G7 G10-G21 G23-G99; GB GBQ GC GD GDW GE GF GFI GGR GH GIA GIC GII GIP GJ GK GL
GLD GLI GLL GM GN GO GP GQ GRM GRN GRO GRT GT GV GW GWH GY GZ
H03-H09 H1 H2 H10-H16 H18 H19 H20-H85 H87-H96 H98 H99; HA HAR HBA HBX HC HD HDW HE HEA HF HGM HH HI HIU HJ HK
HKM HL HLT HM HMQ HMT HN HO HP HPA HS HT HTZ HUR HY
IA IC IE IF II IL IM INH INK INQ IP ISD IT IU IUG IV
J2 J10 J12-J36 J38-J76 J78 J79 J81-J85 J87 J89-J99; JB JE JG JK JM JNT JO JOU JPS JR JWL
K1 K2 K3 K5 K6 K10-K28 K30-K43 K45-K55 K58-K71 K73-K99; KA KAT KB KBA KCC KD KDW KEL KF KG KGM KGS KHY KHZ KI
KIC KIP KJ KJO KL KLK KLX KMA KMH KMK KMQ KMT KNI KNM KNS KNT KO KPA KPH KPO KPP KR KS KSD KSH KT KTM KTN KUR
KVA KVR KVT KW KWH KWN KWO KWS KWT KX
L2 L10-L21 L23-L96 L98 L99; LA LAC LBR LBT LC LD LE LEF LF LH LI LJ LK LM LN LO LP LPA LR LS LTN LTR LUB LUM LUX LX LY
M0 M1 M4 M5 M7 M9 M10-M27 M29-M53 M55-M99; MA MAH MAL MAM MAR MAW MBE MBF MBR MC MCU MD MF MGM MHZ MIK MIL MIN
MIO MIU MK MLD MLT MMK MMQ MMT MND MON MPA MQ MQH MQS MSK MT MTK MTQ MTR MTS MV MVA MWH
N1 N2 N3 N10-N99; NA NAR NB NBB NC NCL ND NE NEW NF NG NH NI NIL NIU NJ NL NM3 NMI NMP NN NPL NPR NPT NQ NR
NRL NT NTT NU NV NX NY
OA ODE ODG ODK ODM OHM ON ONZ OP OPM OT OZ OZA OZI
P0-P99; PA PAL PB PD PE PF PFL PG PGL PI PK PL PLA PM PN PO PQ PR PS PT PTD PTI PTL PTN PU PV PW PY PZ
Q3 Q10-Q42; QA QAN QB QD QH QK QR QT QTD QTI QTL QTR
R1 R4 R9 RA RD RG RH RK RL RM RN RO ROM RP RPM RPS RS RT RU
S3 S4 S5 S6 S7 S8 SA SAN SCO SCR SD SE SEC SET SG SHT SIE SK SL SM3 SMI SN SO SP SQ SQR SR SS SST ST STC STI
STK STL STN STW SV SW SX SYR
T0 T1 T3 T4 T5 T6 T7 T8 TA TAH TAN TC TD TE TF TI TIC TIP TJ TK TKM TL TMS TN TNE TP TPI TPR TQ TQD TR TRL TS
TSD TSH TST TT TTS TU TV TW TY
U1 U2 UA UB UC UD UE UF UH UM VA VI VLT VP VQ VS
W2 W4 WA WB WCD WE WEB WEE WG WH WHR WI WM WR WSD WTT WW
X1 YDK YDQ YL YRD YT Z1 Z2 Z3 Z4 Z5 Z6 Z8 Z11 ZP ZZ
`;

/** Expands the table notation into the set of codes. Exported for its test. */
export function expandUnitCodeTable(table: string): ReadonlySet<string> {
  const codes = new Set<string>();
  for (const line of table.split('\n')) {
    for (const segment of line.split(';')) {
      const [included = '', excluded = ''] = segment.split(' except ');
      const skip = new Set(excluded.trim().split(/\s+/).filter(Boolean));
      for (const item of included.trim().split(/\s+/).filter(Boolean)) {
        for (const code of expandItem(item)) if (!skip.has(code)) codes.add(code);
      }
    }
  }
  return codes;
}

function expandItem(item: string): string[] {
  const range = /^([A-Z])(\d+)-\1(\d+)$/.exec(item);
  if (!range) return [item];
  // `F01-F08` keeps the width of its bounds (F01 ... F08); `A1-A99` has none (A1 ... A99).
  const width = range[2]!.startsWith('0') ? range[2]!.length : 0;
  const out: string[] = [];
  for (let n = Number(range[2]); n <= Number(range[3]); n += 1)
    out.push(`${range[1]}${String(n).padStart(width, '0')}`);
  return out;
}

/** Every accepted unit code. */
export const UNIT_CODES: ReadonlySet<string> = expandUnitCodeTable(UNIT_CODE_TABLE);

/** True when `code` is one of the specification's unit codes (exact, case-sensitive). */
export function isUnitCode(code: string): boolean {
  return UNIT_CODES.has(code);
}

/**
 * Package codes that UN/ECE Recommendation 20 (Annex II, status `X`) deleted with the note "Use
 * UN/ECE Recommendation 21": suppliers who follow that note write the Recommendation 21 code with
 * Recommendation 20's `X` prefix (`XBX` for a box). Listed only where Recommendation 21 gives the
 * same two letters the same meaning, so `X<code>` maps back to `<code>`, which the spec's set holds.
 */
const RECOMMENDATION_21_CODES =
  'AM AV BE BG BJ BK BO BX CA CL CQ CR CS CT CU CY DR JR KG PA PK PL PU RL RO SA ST TN TU VI';

/**
 * Codes outside the spec's set that suppliers write, each with the code it becomes and where the
 * mapping comes from. Shown in docs/content-api.md ("BMEcat and units"); a test checks every
 * target is in the set.
 */
export const UNIT_CODE_MAPPINGS: readonly { readonly from: string; readonly to: string; readonly source: string }[] = [
  ...RECOMMENDATION_21_CODES.split(' ').map((code) => ({
    from: `X${code}`,
    to: code,
    source: `Rec 20 deleted ${code} ("use Recommendation 21"); X${code} is the Rec 21 code in Rec 20's X convention`,
  })),
  {
    from: 'PCE',
    to: 'H87',
    source: 'abbreviation of "piece" in ERP exports and BMEcat samples; Rec 20 H87 is "piece"',
  },
  { from: 'PCS', to: 'H87', source: 'English "pieces"; Rec 20 H87 is "piece"' },
  { from: 'PC', to: 'H87', source: 'English "piece"; Rec 20 H87 is "piece"' },
  { from: 'BOX', to: 'BX', source: 'English "box"; Rec 20 BX is "box"' },
  { from: 'PAA', to: 'PR', source: 'German "Paar" (SAP unit PAA, ISO code PR); Rec 20 PR is "pair"' },
  { from: 'PAK', to: 'PK', source: 'German "Packung" (SAP unit PAK, ISO code PK); Rec 20 PK is "pack"' },
  { from: 'PACK', to: 'PK', source: 'English "pack"; Rec 20 PK is "pack"' },
  { from: 'KAR', to: 'CT', source: 'German "Karton" (SAP unit KAR, ISO code CT); Rec 20 CT is "carton"' },
  { from: 'ROL', to: 'RO', source: 'German "Rolle" (SAP unit ROL, ISO code RO); Rec 20 RO is "roll"' },
  { from: 'BTL', to: 'BG', source: 'German "Beutel"; Rec 20 BG is "bag"' },
  { from: 'DOS', to: 'CA', source: 'German "Dose"; Rec 20 CA is "can"' },
  { from: 'FLA', to: 'BO', source: 'German "Flasche"; Rec 20 BO is "bottle"' },
  { from: 'DZ', to: 'DZN', source: 'English "dozen"; Rec 20 DZN is "dozen"' },
  { from: 'L', to: 'LTR', source: 'SI symbol l; Rec 20 LTR is "litre"' },
  { from: 'ML', to: 'MLT', source: 'SI symbol ml; Rec 20 MLT is "millilitre"' },
  { from: 'M', to: 'MTR', source: 'SI symbol m; Rec 20 MTR is "metre"' },
  { from: 'CM', to: 'CMT', source: 'SI symbol cm; Rec 20 CMT is "centimetre"' },
  { from: 'MM', to: 'MMT', source: 'SI symbol mm; Rec 20 MMT is "millimetre"' },
  { from: 'KM', to: 'KMT', source: 'SI symbol km; Rec 20 KMT is "kilometre"' },
  { from: 'M2', to: 'MTK', source: 'SI symbol m²; Rec 20 MTK is "square metre"' },
  { from: 'M3', to: 'MTQ', source: 'SI symbol m³; Rec 20 MTQ is "cubic metre"' },
  { from: 'G', to: 'GRM', source: 'SI symbol g; Rec 20 GRM is "gram"' },
  { from: 'H', to: 'HUR', source: 'SI symbol h; Rec 20 HUR is "hour"' },
];

const MAPPED: ReadonlyMap<string, string> = new Map(UNIT_CODE_MAPPINGS.map((m) => [m.from, m.to]));

/**
 * The spec's code for a unit a provider wrote: the code itself when it is in the set; else, with
 * surrounding space removed and in upper case, the code itself or its mapping
 * (`UNIT_CODE_MAPPINGS`); undefined when none applies.
 */
export function normalizeUnitCode(code: string): string | undefined {
  if (UNIT_CODES.has(code)) return code;
  const upper = code.trim().toUpperCase();
  return UNIT_CODES.has(upper) ? upper : MAPPED.get(upper);
}
