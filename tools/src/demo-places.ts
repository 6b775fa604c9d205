import type { BusinessHoursType } from '@ev/shared';

/**
 * Demo clusters (merchants), sites (landlords) and groups (parties).
 * Operators are fictitious; site locations are real Thai places with real coordinates.
 * Pairs are written [English, Thai]. Records refer to each other by key; ids are assigned on insert.
 *
 * Power limits (issue 34): two sites share a connection that cannot carry all their chargers at full power, on
 * three phases at 230 V (so their AC chargers are limited in amperes). **Golden Lotus Nimman** is tight: 30 kW
 * for four 22 kW AC connectors and a 25 kW DC charger (113 kW at full power), so any two sessions at once
 * already share. **Ratchaprasong Plaza Car Park P3** is generous: 150 kW for three 22 kW AC connectors and an HPC
 * of 180 + 150 + 50 kW, so only a fast DC session beside others is held back. In the demo (`npm start`) the
 * chargers' own sessions and a share of the members' journeys charge there (member-simulator.ts), so their live
 * load chart shows the sharing.
 */

export type Bilingual = readonly [en: string, th: string];

export type DemoClusterKey =
  | 'metroPlaza'
  | 'thaiWay'
  | 'goldenLotus'
  | 'skyline'
  | 'cptu'
  | 'bangnaGateway'
  | 'siamCare'
  | 'lannaStop'
  | 'isanMart'
  | 'riverside';

export interface DemoCluster {
  key: DemoClusterKey;
  /** Thai name at most 50 characters (form rule). */
  name: Bilingual;
  /** true = Internal Used, false = Public Used. */
  internal: boolean;
  active: boolean;
  addr: Bilingual;
  provinceId: number;
  /** 13 digits with a valid check digit. */
  taxId: string;
  tel: string;
}

export interface DemoHours {
  /** 1 = Sunday … 7 = Saturday. */
  dayOfWeek: number;
  /** 'HH:mm:ss', Bangkok time. */
  openTime: string;
  closeTime: string;
}

export interface DemoSite {
  key: string;
  cluster: DemoClusterKey;
  name: Bilingual;
  at: readonly [latitude: number, longitude: number];
  hoursType: BusinessHoursType;
  /** Only for hoursType 'period'. */
  hours?: readonly DemoHours[];
  meaId?: string;
  peaId?: string;
  /** Ruejai partner project id; sets partnerUserType 'ruejai'. */
  ruejaiProject?: string;
  desc: Bilingual;
  addr: Bilingual;
  provinceId: number;
  tel?: string;
  /** Defaults to true. */
  active?: boolean;
  /** The site's power limit (kW), with its phases and voltage per phase; none: no limit. */
  maxPowerKw?: number;
  phases?: 1 | 3;
  voltage?: number;
}

export interface DemoGroup {
  key: string;
  name: Bilingual;
  active: boolean;
  sites: readonly string[];
}

// Province ids from migrations/0001_provinces.sql.
const P = {
  bangkok: 1,
  chiangMai: 10,
  chiangRai: 11,
  chonBuri: 12,
  khonKaen: 17,
  krabi: 18,
  lampang: 19,
  lamphun: 20,
  maeHongSon: 23,
  nakhonPathom: 27,
  nakhonRatchasima: 29,
  nakhonSawan: 30,
  nongKhai: 35,
  nonthaburi: 36,
  pathumThani: 37,
  ayutthaya: 46,
  phitsanulok: 45,
  phuket: 48,
  prachuap: 50,
  rayong: 53,
  roiEt: 54,
  samutPrakan: 57,
  songkhla: 64,
  suratThani: 67,
  ubon: 72,
  udon: 73,
} as const;

const SUN = 1;
const MON = 2;
const TUE = 3;
const WED = 4;
const THU = 5;
const FRI = 6;
const SAT = 7;
const WEEKDAYS = [MON, TUE, WED, THU, FRI];
const WEEKEND = [SUN, SAT];
const EVERY_DAY = [SUN, MON, TUE, WED, THU, FRI, SAT];

/** One row per day: days(WEEKDAYS, '08:00', '20:00'). */
function days(list: readonly number[], open: string, close: string): DemoHours[] {
  return list.map((dayOfWeek) => ({ dayOfWeek, openTime: `${open}:00`, closeTime: `${close}:00` }));
}

const MALL_HOURS = days(EVERY_DAY, '10:00', '22:00');
const OFFICE_HOURS = days(WEEKDAYS, '07:00', '20:00');
const CAMPUS_HOURS = [...days(WEEKDAYS, '07:00', '21:00'), ...days([SAT], '08:00', '17:00')];
const ROAD_STOP_HOURS = [...days(WEEKDAYS, '07:00', '20:00'), ...days(WEEKEND, '06:30', '21:00')];
const COMMUNITY_MALL_HOURS = [...days(WEEKDAYS, '09:00', '21:00'), ...days(WEEKEND, '09:00', '22:00')];

export const DEMO_CLUSTERS: readonly DemoCluster[] = [
  {
    key: 'metroPlaza',
    name: ['Metro Plaza Shopping Centres', 'ศูนย์การค้าเมโทรพลาซ่า'],
    internal: false,
    active: true,
    addr: [
      '999 Rama I Road, Pathum Wan, Pathum Wan, Bangkok 10330',
      '999 ถนนพระรามที่ 1 แขวงปทุมวัน เขตปทุมวัน กรุงเทพมหานคร 10330',
    ],
    provinceId: P.bangkok,
    taxId: '0105537012340',
    tel: '02-658-1000',
  },
  {
    key: 'thaiWay',
    name: ['ThaiWay Petroleum Stations', 'สถานีบริการน้ำมันไทยเวย์'],
    internal: false,
    active: true,
    addr: [
      '555 Vibhavadi Rangsit Road, Chatuchak, Chatuchak, Bangkok 10900',
      '555 ถนนวิภาวดีรังสิต แขวงจตุจักร เขตจตุจักร กรุงเทพมหานคร 10900',
    ],
    provinceId: P.bangkok,
    taxId: '0107536008715',
    tel: '02-537-2000',
  },
  {
    key: 'goldenLotus',
    name: ['Golden Lotus Hotels & Resorts', 'โรงแรมและรีสอร์ทโกลเด้นโลตัส'],
    internal: false,
    active: true,
    addr: [
      '88 Thawewong Road, Patong, Kathu, Phuket 83150',
      '88 ถนนทวีวงศ์ ตำบลป่าตอง อำเภอกะทู้ จังหวัดภูเก็ต 83150',
    ],
    provinceId: P.phuket,
    taxId: '0835548002158',
    tel: '076-340-888',
  },
  {
    key: 'skyline',
    name: ['Skyline Living Condominiums', 'สกายไลน์ ลิฟวิ่ง คอนโดมิเนียม'],
    internal: true,
    active: true,
    addr: [
      '123 Phahonyothin Road, Samsen Nai, Phaya Thai, Bangkok 10400',
      '123 ถนนพหลโยธิน แขวงสามเสนใน เขตพญาไท กรุงเทพมหานคร 10400',
    ],
    provinceId: P.bangkok,
    taxId: '0105559044261',
    tel: '02-279-5500',
  },
  {
    key: 'cptu',
    name: ['Chao Phraya University of Technology', 'มหาวิทยาลัยเทคโนโลยีเจ้าพระยา'],
    internal: true,
    active: true,
    addr: [
      '99 Moo 18 Phahonyothin Road, Khlong Nueng, Khlong Luang, Pathum Thani 12120',
      '99 หมู่ 18 ถนนพหลโยธิน ตำบลคลองหนึ่ง อำเภอคลองหลวง จังหวัดปทุมธานี 12120',
    ],
    provinceId: P.pathumThani,
    taxId: '0994000157631',
    tel: '02-564-4440',
  },
  {
    key: 'bangnaGateway',
    name: ['Bangna Gateway Business Park', 'บางนา เกตเวย์ บิสซิเนส พาร์ค'],
    internal: true,
    active: true,
    addr: [
      '1919 Bang Na–Trat Road, Bang Na Tai, Bang Na, Bangkok 10260',
      '1919 ถนนบางนา-ตราด แขวงบางนาใต้ เขตบางนา กรุงเทพมหานคร 10260',
    ],
    provinceId: P.bangkok,
    taxId: '0105561029478',
    tel: '02-398-7700',
  },
  {
    key: 'siamCare',
    name: ['Siam Care Hospital Group', 'เครือโรงพยาบาลสยามแคร์'],
    internal: false,
    active: true,
    addr: [
      '315 Phaya Thai Road, Thanon Phetchaburi, Ratchathewi, Bangkok 10400',
      '315 ถนนพญาไท แขวงถนนเพชรบุรี เขตราชเทวี กรุงเทพมหานคร 10400',
    ],
    provinceId: P.bangkok,
    taxId: '0107538003168',
    tel: '02-011-1222',
  },
  {
    key: 'lannaStop',
    name: ['Lanna Road Stop Cafés', 'ลานนา โรดสต็อป คาเฟ่'],
    internal: false,
    active: true,
    addr: [
      '45 Huay Kaew Road, Suthep, Mueang Chiang Mai, Chiang Mai 50200',
      '45 ถนนห้วยแก้ว ตำบลสุเทพ อำเภอเมืองเชียงใหม่ จังหวัดเชียงใหม่ 50200',
    ],
    provinceId: P.chiangMai,
    taxId: '0505560031840',
    tel: '053-221-456',
  },
  {
    key: 'isanMart',
    name: ['Isan Mart Community Malls', 'อีสานมาร์ท คอมมูนิตี้มอลล์'],
    internal: false,
    active: true,
    addr: [
      '277 Mittraphap Road, Nai Mueang, Mueang Khon Kaen, Khon Kaen 40000',
      '277 ถนนมิตรภาพ ตำบลในเมือง อำเภอเมืองขอนแก่น จังหวัดขอนแก่น 40000',
    ],
    provinceId: P.khonKaen,
    taxId: '0405557004927',
    tel: '043-242-999',
  },
  {
    key: 'riverside',
    name: ['Riverside Parking Co. (closed)', 'ริเวอร์ไซด์ พาร์คกิ้ง (ปิดกิจการ)'],
    internal: false,
    active: false,
    addr: [
      '12 Maha Rat Road, Phra Borom Maha Ratchawang, Phra Nakhon, Bangkok 10200',
      '12 ถนนมหาราช แขวงพระบรมมหาราชวัง เขตพระนคร กรุงเทพมหานคร 10200',
    ],
    provinceId: P.bangkok,
    taxId: '0105542006387',
    tel: '02-221-3344',
  },
];

export const DEMO_SITES: readonly DemoSite[] = [
  // Metro Plaza Shopping Centres: the cluster of the demo cluster user.
  {
    key: 'siamSquareB2',
    cluster: 'metroPlaza',
    name: ['Siam Square Parking B2', 'ลานจอดรถสยามสแควร์ ชั้น B2'],
    at: [13.7453, 100.534],
    hoursType: 'period',
    hours: MALL_HOURS,
    meaId: '000201534701',
    desc: [
      '4 DC fast chargers (120 kW) on level B2 next to lift lobby C.',
      'เครื่องชาร์จเร็ว DC 120 kW จำนวน 4 หัว ชั้น B2 ข้างโถงลิฟต์ C',
    ],
    addr: [
      '392 Rama I Road, Pathum Wan, Pathum Wan, Bangkok 10330',
      '392 ถนนพระรามที่ 1 แขวงปทุมวัน เขตปทุมวัน กรุงเทพมหานคร 10330',
    ],
    provinceId: P.bangkok,
    tel: '02-658-1001',
  },
  {
    key: 'ratchaprasong',
    cluster: 'metroPlaza',
    name: ['Ratchaprasong Plaza Car Park P3', 'ลานจอดรถราชประสงค์พลาซ่า อาคาร P3'],
    at: [13.7466, 100.5393],
    hoursType: '24H',
    meaId: '000201539302',
    desc: [
      '6 DC chargers and 4 AC wallboxes, open around the clock on floor 3.',
      'เครื่องชาร์จ DC 6 หัว และ AC 4 หัว เปิดตลอด 24 ชั่วโมง ชั้น 3',
    ],
    addr: [
      '4 Ratchadamri Road, Pathum Wan, Pathum Wan, Bangkok 10330',
      '4 ถนนราชดำริ แขวงปทุมวัน เขตปทุมวัน กรุงเทพมหานคร 10330',
    ],
    provinceId: P.bangkok,
    tel: '02-658-1002',
    // The generous one: 150 kW for 446 kW of chargers, mostly one HPC.
    maxPowerKw: 150,
    phases: 3,
    voltage: 230,
  },
  {
    key: 'chatuchak',
    cluster: 'metroPlaza',
    name: ['Chatuchak Market North Car Park', 'ลานจอดรถตลาดนัดจตุจักร ฝั่งเหนือ'],
    at: [13.7999, 100.55],
    hoursType: 'period',
    hours: [
      ...days([WED, THU], '07:00', '18:00'),
      ...days([FRI], '18:00', '23:59'),
      ...days(WEEKEND, '09:00', '18:00'),
    ],
    meaId: '000201550003',
    desc: [
      'Open-air lot near gate 1; busiest on weekend market days.',
      'ลานจอดกลางแจ้งใกล้ประตู 1 คนหนาแน่นช่วงตลาดนัดเสาร์-อาทิตย์',
    ],
    addr: [
      '587 Kamphaeng Phet 2 Road, Chatuchak, Chatuchak, Bangkok 10900',
      '587 ถนนกำแพงเพชร 2 แขวงจตุจักร เขตจตุจักร กรุงเทพมหานคร 10900',
    ],
    provinceId: P.bangkok,
  },
  {
    key: 'asok',
    cluster: 'metroPlaza',
    name: ['Asok Junction Parking L5', 'ลานจอดรถแยกอโศก ชั้น 5'],
    at: [13.7377, 100.5603],
    hoursType: 'period',
    hours: MALL_HOURS,
    meaId: '000201560304',
    desc: [
      '2 DC chargers (60 kW), linked to BTS Asok and MRT Sukhumvit.',
      'เครื่องชาร์จ DC 60 kW จำนวน 2 หัว เชื่อมต่อ BTS อโศก และ MRT สุขุมวิท',
    ],
    addr: [
      '88 Sukhumvit Soi 19, Khlong Toei Nuea, Watthana, Bangkok 10110',
      '88 ซอยสุขุมวิท 19 แขวงคลองเตยเหนือ เขตวัฒนา กรุงเทพมหานคร 10110',
    ],
    provinceId: P.bangkok,
    tel: '02-658-1004',
  },
  {
    key: 'silom',
    cluster: 'metroPlaza',
    name: ['Silom Complex Basement B1', 'ลานจอดรถสีลมคอมเพล็กซ์ ชั้น B1'],
    at: [13.7285, 100.5349],
    hoursType: 'period',
    hours: days(EVERY_DAY, '10:30', '21:30'),
    meaId: '000201534905',
    desc: [
      'AC chargers for shoppers, next to the MRT Si Lom exit.',
      'เครื่องชาร์จ AC สำหรับลูกค้า ติดทางออก MRT สีลม',
    ],
    addr: [
      '191 Silom Road, Silom, Bang Rak, Bangkok 10500',
      '191 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500',
    ],
    provinceId: P.bangkok,
    tel: '02-658-1005',
  },
  {
    key: 'iconRiverside',
    cluster: 'metroPlaza',
    name: ['Charoen Nakhon Riverside Parking', 'ลานจอดรถริมน้ำเจริญนคร'],
    at: [13.7267, 100.5105],
    hoursType: 'period',
    hours: MALL_HOURS,
    meaId: '000201510506',
    desc: [
      '8 DC fast chargers (180 kW) by the river, zone R.',
      'เครื่องชาร์จเร็ว DC 180 kW จำนวน 8 หัว ริมแม่น้ำ โซน R',
    ],
    addr: [
      '299 Charoen Nakhon Road, Khlong Ton Sai, Khlong San, Bangkok 10600',
      '299 ถนนเจริญนคร แขวงคลองต้นไทร เขตคลองสาน กรุงเทพมหานคร 10600',
    ],
    provinceId: P.bangkok,
    tel: '02-658-1006',
  },
  {
    key: 'seacon',
    cluster: 'metroPlaza',
    name: ['Srinakarin Plaza Car Park', 'ลานจอดรถศรีนครินทร์พลาซ่า'],
    at: [13.693, 100.6479],
    hoursType: 'maintenance',
    meaId: '000201647907',
    desc: ['Chargers being replaced with new 150 kW units.', 'อยู่ระหว่างเปลี่ยนเครื่องชาร์จใหม่ขนาด 150 kW'],
    addr: [
      '55 Srinakarin Road, Nong Bon, Prawet, Bangkok 10250',
      '55 ถนนศรีนครินทร์ แขวงหนองบอน เขตประเวศ กรุงเทพมหานคร 10250',
    ],
    provinceId: P.bangkok,
  },
  {
    key: 'bangnaMega',
    cluster: 'metroPlaza',
    name: ['Bang Na Mega Parking Zone C', 'ลานจอดรถบางนาเมกะ โซน C'],
    at: [13.6467, 100.6807],
    hoursType: 'period',
    hours: MALL_HOURS,
    meaId: '000571680708',
    desc: [
      'Large outdoor zone with 10 AC and 4 DC chargers near IKEA entrance.',
      'ลานจอดกลางแจ้ง เครื่องชาร์จ AC 10 หัว DC 4 หัว ใกล้ทางเข้าอิเกีย',
    ],
    addr: [
      '39 Moo 6 Bang Na–Trat Road, Bang Kaeo, Bang Phli, Samut Prakan 10540',
      '39 หมู่ 6 ถนนบางนา-ตราด ตำบลบางแก้ว อำเภอบางพลี จังหวัดสมุทรปราการ 10540',
    ],
    provinceId: P.samutPrakan,
    tel: '02-658-1008',
  },
  {
    key: 'rangsitPark',
    cluster: 'metroPlaza',
    name: ['Rangsit Park Outdoor Lot', 'ลานจอดรถกลางแจ้งรังสิตพาร์ค'],
    at: [13.9891, 100.6176],
    hoursType: 'period',
    hours: MALL_HOURS,
    peaId: '020012617609',
    desc: [
      'Covered bays with 6 DC chargers along Phahonyothin Road.',
      'ช่องจอดมีหลังคา เครื่องชาร์จ DC 6 หัว ริมถนนพหลโยธิน',
    ],
    addr: [
      '94 Phahonyothin Road, Prachathipat, Thanyaburi, Pathum Thani 12130',
      '94 ถนนพหลโยธิน ตำบลประชาธิปัตย์ อำเภอธัญบุรี จังหวัดปทุมธานี 12130',
    ],
    provinceId: P.pathumThani,
    tel: '02-658-1009',
  },
  {
    key: 'bangYai',
    cluster: 'metroPlaza',
    name: ['Bang Yai Westgate West Lot', 'ลานจอดรถบางใหญ่ เวสต์เกต ฝั่งตะวันตก'],
    at: [13.877, 100.4112],
    hoursType: 'comingsoon',
    meaId: '000361411210',
    desc: ['Opening next quarter with 8 DC chargers.', 'เปิดให้บริการไตรมาสหน้า เครื่องชาร์จ DC 8 หัว'],
    addr: [
      '199 Moo 6 Kanchanaphisek Road, Sao Thong Hin, Bang Yai, Nonthaburi 11140',
      '199 หมู่ 6 ถนนกาญจนาภิเษก ตำบลเสาธงหิน อำเภอบางใหญ่ จังหวัดนนทบุรี 11140',
    ],
    provinceId: P.nonthaburi,
  },

  // ThaiWay Petroleum: highway stations, open 24 hours.
  {
    key: 'twVibhavadi',
    cluster: 'thaiWay',
    name: ['ThaiWay Vibhavadi–Lak Si', 'ไทยเวย์ วิภาวดี-หลักสี่'],
    at: [13.8795, 100.5785],
    hoursType: '24H',
    meaId: '000101578511',
    desc: ['2 DC chargers (120 kW) beside the mini-mart.', 'เครื่องชาร์จ DC 120 kW จำนวน 2 หัว ข้างร้านสะดวกซื้อ'],
    addr: [
      '111 Vibhavadi Rangsit Road, Talat Bang Khen, Lak Si, Bangkok 10210',
      '111 ถนนวิภาวดีรังสิต แขวงตลาดบางเขน เขตหลักสี่ กรุงเทพมหานคร 10210',
    ],
    provinceId: P.bangkok,
    tel: '02-537-2011',
  },
  {
    key: 'twAyutthaya',
    cluster: 'thaiWay',
    name: ['ThaiWay Ayutthaya Bypass', 'ไทยเวย์ เลี่ยงเมืองอยุธยา'],
    at: [14.3532, 100.5689],
    hoursType: '24H',
    peaId: '020014656812',
    desc: [
      'Stop on Highway 32 towards the north, 2 DC chargers.',
      'จุดแวะพักทางหลวง 32 มุ่งหน้าภาคเหนือ เครื่องชาร์จ DC 2 หัว',
    ],
    addr: [
      '71 Rojana Road, Khlong Suan Phlu, Phra Nakhon Si Ayutthaya, Phra Nakhon Si Ayutthaya 13000',
      '71 ถนนโรจนะ ตำบลคลองสวนพลู อำเภอพระนครศรีอยุธยา จังหวัดพระนครศรีอยุธยา 13000',
    ],
    provinceId: P.ayutthaya,
    tel: '035-241-112',
  },
  {
    key: 'twKorat',
    cluster: 'thaiWay',
    name: ['ThaiWay Korat Mittraphap', 'ไทยเวย์ โคราช มิตรภาพ'],
    at: [14.962, 102.065],
    hoursType: '24H',
    peaId: '020029606513',
    desc: ['Gateway to Isan on Highway 2, 4 DC chargers.', 'ประตูสู่อีสานบนทางหลวงหมายเลข 2 เครื่องชาร์จ DC 4 หัว'],
    addr: [
      '1500 Mittraphap Road, Nai Mueang, Mueang Nakhon Ratchasima, Nakhon Ratchasima 30000',
      '1500 ถนนมิตรภาพ ตำบลในเมือง อำเภอเมืองนครราชสีมา จังหวัดนครราชสีมา 30000',
    ],
    provinceId: P.nakhonRatchasima,
    tel: '044-256-113',
  },
  {
    key: 'twKhonKaen',
    cluster: 'thaiWay',
    name: ['ThaiWay Khon Kaen Mittraphap', 'ไทยเวย์ ขอนแก่น มิตรภาพ'],
    at: [16.447, 102.815],
    hoursType: '24H',
    peaId: '020017681514',
    desc: ['2 DC chargers on the northbound side.', 'เครื่องชาร์จ DC 2 หัว ฝั่งขาขึ้น'],
    addr: [
      '390 Mittraphap Road, Nai Mueang, Mueang Khon Kaen, Khon Kaen 40000',
      '390 ถนนมิตรภาพ ตำบลในเมือง อำเภอเมืองขอนแก่น จังหวัดขอนแก่น 40000',
    ],
    provinceId: P.khonKaen,
    tel: '043-225-114',
  },
  {
    key: 'twUdon',
    cluster: 'thaiWay',
    name: ['ThaiWay Udon Thani Pho Si', 'ไทยเวย์ อุดรธานี โพศรี'],
    at: [17.44, 102.78],
    hoursType: '24H',
    peaId: '020073678015',
    desc: ['Last fast charger before Nong Khai.', 'จุดชาร์จเร็วจุดสุดท้ายก่อนถึงหนองคาย'],
    addr: [
      '22 Udon–Nong Khai Road, Mak Khaeng, Mueang Udon Thani, Udon Thani 41000',
      '22 ถนนอุดร-หนองคาย ตำบลหมากแข้ง อำเภอเมืองอุดรธานี จังหวัดอุดรธานี 41000',
    ],
    provinceId: P.udon,
    tel: '042-241-115',
  },
  {
    key: 'twNakhonSawan',
    cluster: 'thaiWay',
    name: ['ThaiWay Nakhon Sawan Asian Highway', 'ไทยเวย์ นครสวรรค์ สายเอเชีย'],
    at: [15.7047, 100.1372],
    hoursType: '24H',
    peaId: '020030137216',
    desc: [
      'Halfway stop between Bangkok and Chiang Mai, 4 DC chargers.',
      'จุดพักครึ่งทางกรุงเทพฯ-เชียงใหม่ เครื่องชาร์จ DC 4 หัว',
    ],
    addr: [
      '9 Phahonyothin Road, Nakhon Sawan Tok, Mueang Nakhon Sawan, Nakhon Sawan 60000',
      '9 ถนนพหลโยธิน ตำบลนครสวรรค์ตก อำเภอเมืองนครสวรรค์ จังหวัดนครสวรรค์ 60000',
    ],
    provinceId: P.nakhonSawan,
    tel: '056-221-116',
  },
  {
    key: 'twPhitsanulok',
    cluster: 'thaiWay',
    name: ['ThaiWay Phitsanulok', 'ไทยเวย์ พิษณุโลก'],
    at: [16.8211, 100.2659],
    hoursType: '24H',
    peaId: '020045265917',
    desc: ['2 DC chargers near the Singhawat Road junction.', 'เครื่องชาร์จ DC 2 หัว ใกล้แยกถนนสิงหวัฒน์'],
    addr: [
      '168 Singhawat Road, Nai Mueang, Mueang Phitsanulok, Phitsanulok 65000',
      '168 ถนนสิงหวัฒน์ ตำบลในเมือง อำเภอเมืองพิษณุโลก จังหวัดพิษณุโลก 65000',
    ],
    provinceId: P.phitsanulok,
    tel: '055-242-117',
  },
  {
    key: 'twLampang',
    cluster: 'thaiWay',
    name: ['ThaiWay Lampang Phahonyothin', 'ไทยเวย์ ลำปาง พหลโยธิน'],
    at: [18.2888, 99.4909],
    hoursType: '24H',
    peaId: '020019490918',
    desc: ['Stop before the climb to Chiang Mai.', 'จุดแวะก่อนขึ้นดอยสู่เชียงใหม่'],
    addr: [
      '310 Phahonyothin Road, Suan Dok, Mueang Lampang, Lampang 52100',
      '310 ถนนพหลโยธิน ตำบลสวนดอก อำเภอเมืองลำปาง จังหวัดลำปาง 52100',
    ],
    provinceId: P.lampang,
    tel: '054-221-118',
  },
  {
    key: 'twHuaHin',
    cluster: 'thaiWay',
    name: ['ThaiWay Hua Hin Phetkasem', 'ไทยเวย์ หัวหิน เพชรเกษม'],
    at: [12.5684, 99.9577],
    hoursType: '24H',
    peaId: '020050957719',
    desc: ['On Phetkasem Road, 5 minutes from the beach.', 'ริมถนนเพชรเกษม ห่างชายหาด 5 นาที'],
    addr: [
      '64 Phetkasem Road, Hua Hin, Hua Hin, Prachuap Khiri Khan 77110',
      '64 ถนนเพชรเกษม ตำบลหัวหิน อำเภอหัวหิน จังหวัดประจวบคีรีขันธ์ 77110',
    ],
    provinceId: P.prachuap,
    tel: '032-511-119',
  },
  {
    key: 'twRayong',
    cluster: 'thaiWay',
    name: ['ThaiWay Rayong Sukhumvit', 'ไทยเวย์ ระยอง สุขุมวิท'],
    at: [12.6814, 101.2816],
    hoursType: '24H',
    peaId: '020053281620',
    desc: ['Serves the Eastern Seaboard industrial estates.', 'ให้บริการนิคมอุตสาหกรรมภาคตะวันออก'],
    addr: [
      '201 Sukhumvit Road, Tha Pradu, Mueang Rayong, Rayong 21000',
      '201 ถนนสุขุมวิท ตำบลท่าประดู่ อำเภอเมืองระยอง จังหวัดระยอง 21000',
    ],
    provinceId: P.rayong,
    tel: '038-611-120',
  },
  {
    key: 'twChiangRai',
    cluster: 'thaiWay',
    name: ['ThaiWay Chiang Rai Phahonyothin', 'ไทยเวย์ เชียงราย พหลโยธิน'],
    at: [19.9105, 99.8406],
    hoursType: 'comingsoon',
    peaId: '020011840621',
    desc: ['Under construction; 2 DC chargers planned.', 'อยู่ระหว่างก่อสร้าง วางแผนติดตั้งเครื่องชาร์จ DC 2 หัว'],
    addr: [
      '730 Phahonyothin Road, Wiang, Mueang Chiang Rai, Chiang Rai 57000',
      '730 ถนนพหลโยธิน ตำบลเวียง อำเภอเมืองเชียงราย จังหวัดเชียงราย 57000',
    ],
    provinceId: P.chiangRai,
  },

  // Golden Lotus Hotels & Resorts.
  {
    key: 'glPatong',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Patong Beach', 'โกลเด้นโลตัส หาดป่าตอง'],
    at: [7.8961, 98.297],
    hoursType: '24H',
    peaId: '020048297022',
    desc: [
      'Hotel car park, 4 AC chargers; open to the public.',
      'ลานจอดรถโรงแรม เครื่องชาร์จ AC 4 หัว บุคคลทั่วไปใช้ได้',
    ],
    addr: [
      '88 Thawewong Road, Patong, Kathu, Phuket 83150',
      '88 ถนนทวีวงศ์ ตำบลป่าตอง อำเภอกะทู้ จังหวัดภูเก็ต 83150',
    ],
    provinceId: P.phuket,
    tel: '076-340-881',
  },
  {
    key: 'glKata',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Kata Hillside', 'โกลเด้นโลตัส กะตะ ฮิลล์ไซด์'],
    at: [7.8205, 98.2977],
    hoursType: '24H',
    peaId: '020048297723',
    desc: ['2 AC chargers at the lobby drop-off.', 'เครื่องชาร์จ AC 2 หัว บริเวณจุดรับส่งหน้าล็อบบี้'],
    addr: [
      '5 Kata Road, Karon, Mueang Phuket, Phuket 83100',
      '5 ถนนกะตะ ตำบลกะรน อำเภอเมืองภูเก็ต จังหวัดภูเก็ต 83100',
    ],
    provinceId: P.phuket,
    tel: '076-330-882',
  },
  {
    key: 'glPattaya',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Pattaya Beach Road', 'โกลเด้นโลตัส ถนนเลียบหาดพัทยา'],
    at: [12.9276, 100.8771],
    hoursType: '24H',
    peaId: '020012877124',
    desc: ['2 DC chargers in the basement car park.', 'เครื่องชาร์จ DC 2 หัว ลานจอดรถชั้นใต้ดิน'],
    addr: [
      '218 Pattaya Beach Road, Nong Prue, Bang Lamung, Chon Buri 20150',
      '218 ถนนเลียบหาดพัทยา ตำบลหนองปรือ อำเภอบางละมุง จังหวัดชลบุรี 20150',
    ],
    provinceId: P.chonBuri,
    tel: '038-428-883',
  },
  {
    key: 'glHuaHin',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Hua Hin Beachfront', 'โกลเด้นโลตัส หัวหิน ริมหาด'],
    at: [12.5713, 99.9612],
    hoursType: '24H',
    peaId: '020050961225',
    desc: ['4 AC chargers next to the beach club.', 'เครื่องชาร์จ AC 4 หัว ข้างบีชคลับ'],
    addr: [
      '33 Naresdamri Road, Hua Hin, Hua Hin, Prachuap Khiri Khan 77110',
      '33 ถนนนเรศดำริ ตำบลหัวหิน อำเภอหัวหิน จังหวัดประจวบคีรีขันธ์ 77110',
    ],
    provinceId: P.prachuap,
    tel: '032-512-884',
  },
  {
    key: 'glAoNang',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Ao Nang', 'โกลเด้นโลตัส อ่าวนาง'],
    at: [8.0326, 98.8236],
    hoursType: 'comingsoon',
    peaId: '020018823626',
    desc: ['Chargers arrive with the resort opening.', 'เปิดให้บริการพร้อมการเปิดรีสอร์ท'],
    addr: [
      '143 Moo 2 Ao Nang, Mueang Krabi, Krabi 81180',
      '143 หมู่ 2 ตำบลอ่าวนาง อำเภอเมืองกระบี่ จังหวัดกระบี่ 81180',
    ],
    provinceId: P.krabi,
  },
  {
    key: 'glChaweng',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Chaweng Samui', 'โกลเด้นโลตัส เฉวง สมุย'],
    at: [9.5319, 100.0615],
    hoursType: '24H',
    peaId: '020067061527',
    desc: ['The only DC charger on Chaweng Beach Road.', 'เครื่องชาร์จ DC แห่งเดียวบนถนนหาดเฉวง'],
    addr: [
      '14/1 Moo 2 Chaweng Beach Road, Bo Phut, Ko Samui, Surat Thani 84320',
      '14/1 หมู่ 2 ถนนหาดเฉวง ตำบลบ่อผุด อำเภอเกาะสมุย จังหวัดสุราษฎร์ธานี 84320',
    ],
    provinceId: P.suratThani,
    tel: '077-422-885',
  },
  {
    key: 'glNimman',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Nimman', 'โกลเด้นโลตัส นิมมาน'],
    at: [18.7991, 98.9677],
    hoursType: '24H',
    peaId: '020010967728',
    desc: ['2 AC chargers, guests have priority at night.', 'เครื่องชาร์จ AC 2 หัว กลางคืนให้สิทธิ์แขกโรงแรมก่อน'],
    addr: [
      '1 Nimmanhaemin Road, Suthep, Mueang Chiang Mai, Chiang Mai 50200',
      '1 ถนนนิมมานเหมินท์ ตำบลสุเทพ อำเภอเมืองเชียงใหม่ จังหวัดเชียงใหม่ 50200',
    ],
    provinceId: P.chiangMai,
    tel: '053-216-886',
    // The tight one: 30 kW for 113 kW of chargers (two sessions share: the demo's members rarely make three).
    maxPowerKw: 30,
    phases: 3,
    voltage: 230,
  },
  {
    key: 'glSukhumvit11',
    cluster: 'goldenLotus',
    name: ['Golden Lotus Sukhumvit 11', 'โกลเด้นโลตัส สุขุมวิท 11'],
    at: [13.744, 100.5553],
    hoursType: '24H',
    meaId: '000101555329',
    desc: ['Valet charging, 2 AC wallboxes.', 'บริการชาร์จผ่านพนักงานรับจอดรถ เครื่องชาร์จ AC 2 หัว'],
    addr: [
      '11 Sukhumvit Soi 11, Khlong Toei Nuea, Watthana, Bangkok 10110',
      '11 ซอยสุขุมวิท 11 แขวงคลองเตยเหนือ เขตวัฒนา กรุงเทพมหานคร 10110',
    ],
    provinceId: P.bangkok,
    tel: '02-651-8887',
  },

  // Skyline Living Condominiums (Internal Used, residents only; Ruejai partner projects).
  {
    key: 'skAri',
    cluster: 'skyline',
    name: ['Skyline Ari Residence', 'สกายไลน์ อารีย์ เรสซิเดนซ์'],
    at: [13.7797, 100.5446],
    hoursType: '24H',
    meaId: '000101544630',
    ruejaiProject: 'RJ-PRJ-10231',
    desc: ['Residents only, 6 AC chargers on P2.', 'เฉพาะผู้พักอาศัย เครื่องชาร์จ AC 6 หัว ชั้น P2'],
    addr: [
      '9 Phahonyothin Soi 7, Samsen Nai, Phaya Thai, Bangkok 10400',
      '9 ซอยพหลโยธิน 7 แขวงสามเสนใน เขตพญาไท กรุงเทพมหานคร 10400',
    ],
    provinceId: P.bangkok,
    tel: '02-279-5501',
  },
  {
    key: 'skOnNut',
    cluster: 'skyline',
    name: ['Skyline On Nut Station', 'สกายไลน์ อ่อนนุช สเตชั่น'],
    at: [13.7056, 100.6011],
    hoursType: '24H',
    meaId: '000101601131',
    ruejaiProject: 'RJ-PRJ-10232',
    desc: ['Residents only, 8 AC chargers on P1.', 'เฉพาะผู้พักอาศัย เครื่องชาร์จ AC 8 หัว ชั้น P1'],
    addr: [
      '1600 Sukhumvit Road, Phra Khanong Tai, Phra Khanong, Bangkok 10260',
      '1600 ถนนสุขุมวิท แขวงพระโขนงใต้ เขตพระโขนง กรุงเทพมหานคร 10260',
    ],
    provinceId: P.bangkok,
    tel: '02-279-5502',
  },
  {
    key: 'skRatchada',
    cluster: 'skyline',
    name: ['Skyline Ratchada–Huai Khwang', 'สกายไลน์ รัชดา-ห้วยขวาง'],
    at: [13.7786, 100.5737],
    hoursType: '24H',
    meaId: '000101573732',
    ruejaiProject: 'RJ-PRJ-10233',
    desc: ['Residents only, 4 AC chargers by the lobby.', 'เฉพาะผู้พักอาศัย เครื่องชาร์จ AC 4 หัว ข้างล็อบบี้'],
    addr: [
      '168 Ratchadaphisek Road, Huai Khwang, Huai Khwang, Bangkok 10310',
      '168 ถนนรัชดาภิเษก แขวงห้วยขวาง เขตห้วยขวาง กรุงเทพมหานคร 10310',
    ],
    provinceId: P.bangkok,
    tel: '02-279-5503',
  },
  {
    key: 'skNonthaburi',
    cluster: 'skyline',
    name: ['Skyline Nonthaburi Riverside', 'สกายไลน์ นนทบุรี ริเวอร์ไซด์'],
    at: [13.859, 100.497],
    hoursType: '24H',
    meaId: '000361497033',
    desc: ['Residents only, near Nonthaburi pier.', 'เฉพาะผู้พักอาศัย ใกล้ท่าน้ำนนทบุรี'],
    addr: [
      '55 Pracharat Road, Suan Yai, Mueang Nonthaburi, Nonthaburi 11000',
      '55 ถนนประชาราษฎร์ ตำบลสวนใหญ่ อำเภอเมืองนนทบุรี จังหวัดนนทบุรี 11000',
    ],
    provinceId: P.nonthaburi,
    tel: '02-279-5504',
  },
  {
    key: 'skSriracha',
    cluster: 'skyline',
    name: ['Skyline Si Racha Bay', 'สกายไลน์ ศรีราชา เบย์'],
    at: [13.1737, 100.9311],
    hoursType: 'comingsoon',
    peaId: '020012931134',
    ruejaiProject: 'RJ-PRJ-10240',
    desc: ['Handover next year; chargers in every parking zone.', 'ส่งมอบปีหน้า ติดตั้งเครื่องชาร์จทุกโซนจอดรถ'],
    addr: [
      '99 Sukhumvit Road, Si Racha, Si Racha, Chon Buri 20110',
      '99 ถนนสุขุมวิท ตำบลศรีราชา อำเภอศรีราชา จังหวัดชลบุรี 20110',
    ],
    provinceId: P.chonBuri,
  },

  // Chao Phraya University of Technology (Internal Used: staff and students).
  {
    key: 'cptuEngineering',
    cluster: 'cptu',
    name: ['Rangsit Campus Engineering Building', 'อาคารวิศวกรรมศาสตร์ ศูนย์รังสิต'],
    at: [14.0705, 100.604],
    hoursType: 'period',
    hours: CAMPUS_HOURS,
    peaId: '020037604035',
    desc: [
      'Staff and students; 4 AC chargers, also used for research.',
      'บุคลากรและนักศึกษา เครื่องชาร์จ AC 4 หัว ใช้เพื่องานวิจัยด้วย',
    ],
    addr: [
      '99 Moo 18 Phahonyothin Road, Khlong Nueng, Khlong Luang, Pathum Thani 12120',
      '99 หมู่ 18 ถนนพหลโยธิน ตำบลคลองหนึ่ง อำเภอคลองหลวง จังหวัดปทุมธานี 12120',
    ],
    provinceId: P.pathumThani,
    tel: '02-564-4441',
  },
  {
    key: 'cptuLibrary',
    cluster: 'cptu',
    name: ['Rangsit Campus Library Car Park', 'ลานจอดรถหอสมุด ศูนย์รังสิต'],
    at: [14.0725, 100.605],
    hoursType: 'period',
    hours: CAMPUS_HOURS,
    peaId: '020037605036',
    desc: ['6 AC chargers in front of the main library.', 'เครื่องชาร์จ AC 6 หัว หน้าหอสมุดกลาง'],
    addr: [
      '99 Moo 18 Phahonyothin Road, Khlong Nueng, Khlong Luang, Pathum Thani 12120',
      '99 หมู่ 18 ถนนพหลโยธิน ตำบลคลองหนึ่ง อำเภอคลองหลวง จังหวัดปทุมธานี 12120',
    ],
    provinceId: P.pathumThani,
    tel: '02-564-4442',
  },
  {
    key: 'cptuDorm',
    cluster: 'cptu',
    name: ['Rangsit Campus Dormitory Zone', 'โซนหอพักนักศึกษา ศูนย์รังสิต'],
    at: [14.068, 100.61],
    hoursType: '24H',
    peaId: '020037610037',
    desc: ['Overnight AC charging for dormitory residents.', 'ชาร์จ AC ข้ามคืนสำหรับผู้พักในหอพัก'],
    addr: [
      '99 Moo 18 Phahonyothin Road, Khlong Nueng, Khlong Luang, Pathum Thani 12120',
      '99 หมู่ 18 ถนนพหลโยธิน ตำบลคลองหนึ่ง อำเภอคลองหลวง จังหวัดปทุมธานี 12120',
    ],
    provinceId: P.pathumThani,
  },
  {
    key: 'cptuSalaya',
    cluster: 'cptu',
    name: ['Salaya Campus Car Park', 'ลานจอดรถ ศูนย์ศาลายา'],
    at: [13.7935, 100.3225],
    hoursType: 'closed',
    peaId: '020027322538',
    desc: ['Closed while the campus car park is rebuilt.', 'ปิดระหว่างการปรับปรุงลานจอดรถของศูนย์'],
    addr: [
      '999 Phutthamonthon Sai 4 Road, Salaya, Phutthamonthon, Nakhon Pathom 73170',
      '999 ถนนพุทธมณฑลสาย 4 ตำบลศาลายา อำเภอพุทธมณฑล จังหวัดนครปฐม 73170',
    ],
    provinceId: P.nakhonPathom,
    tel: '02-441-0001',
  },

  // Bangna Gateway Business Park (Internal Used: tenants and company fleets).
  {
    key: 'bgTowerA',
    cluster: 'bangnaGateway',
    name: ['Bangna Gateway Tower A Basement B1', 'บางนา เกตเวย์ อาคาร A ชั้น B1'],
    at: [13.665, 100.633],
    hoursType: 'period',
    hours: OFFICE_HOURS,
    meaId: '000101633039',
    desc: ['Tenant staff only, 10 AC chargers.', 'เฉพาะพนักงานผู้เช่า เครื่องชาร์จ AC 10 หัว'],
    addr: [
      '1919 Bang Na–Trat Road, Bang Na Tai, Bang Na, Bangkok 10260',
      '1919 ถนนบางนา-ตราด แขวงบางนาใต้ เขตบางนา กรุงเทพมหานคร 10260',
    ],
    provinceId: P.bangkok,
    tel: '02-398-7701',
  },
  {
    key: 'bgTowerB',
    cluster: 'bangnaGateway',
    name: ['Bangna Gateway Tower B Fleet Bay', 'บางนา เกตเวย์ อาคาร B ช่องจอดรถบริษัท'],
    at: [13.6655, 100.634],
    hoursType: 'period',
    hours: [...days(WEEKDAYS, '06:00', '22:00'), ...days([SAT], '08:00', '18:00')],
    meaId: '000101634040',
    desc: ['Company fleet vans, 4 DC chargers.', 'รถตู้ของบริษัท เครื่องชาร์จ DC 4 หัว'],
    addr: [
      '1919 Bang Na–Trat Road, Bang Na Tai, Bang Na, Bangkok 10260',
      '1919 ถนนบางนา-ตราด แขวงบางนาใต้ เขตบางนา กรุงเทพมหานคร 10260',
    ],
    provinceId: P.bangkok,
    tel: '02-398-7702',
  },
  {
    key: 'bgVisitor',
    cluster: 'bangnaGateway',
    name: ['Bangna Gateway Visitor Car Park', 'บางนา เกตเวย์ ลานจอดรถผู้มาติดต่อ'],
    at: [13.6645, 100.6325],
    hoursType: 'period',
    hours: days(WEEKDAYS, '08:00', '18:00'),
    meaId: '000101632541',
    desc: ['Retired: chargers moved to Tower B.', 'ยกเลิกแล้ว ย้ายเครื่องชาร์จไปอาคาร B'],
    addr: [
      '1919 Bang Na–Trat Road, Bang Na Tai, Bang Na, Bangkok 10260',
      '1919 ถนนบางนา-ตราด แขวงบางนาใต้ เขตบางนา กรุงเทพมหานคร 10260',
    ],
    provinceId: P.bangkok,
    active: false,
  },
  {
    key: 'bgDepot',
    cluster: 'bangnaGateway',
    name: ['Bang Phli Logistics Depot', 'คลังสินค้าบางพลี'],
    at: [13.608, 100.707],
    hoursType: '24H',
    meaId: '000571707042',
    desc: ['Delivery trucks charge overnight, 6 DC chargers.', 'รถขนส่งชาร์จข้ามคืน เครื่องชาร์จ DC 6 หัว'],
    addr: [
      '88 Moo 13 Bang Na–Trat Road Km 19, Bang Chalong, Bang Phli, Samut Prakan 10540',
      '88 หมู่ 13 ถนนบางนา-ตราด กม.19 ตำบลบางโฉลง อำเภอบางพลี จังหวัดสมุทรปราการ 10540',
    ],
    provinceId: P.samutPrakan,
    tel: '02-398-7703',
  },

  // Siam Care Hospital Group: open 24 hours.
  {
    key: 'scPhayaThai',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Phaya Thai', 'โรงพยาบาลสยามแคร์ พญาไท'],
    at: [13.765, 100.538],
    hoursType: '24H',
    meaId: '000101538043',
    desc: ['Visitor car park, 4 DC chargers on level 2.', 'ลานจอดรถผู้มาเยี่ยม เครื่องชาร์จ DC 4 หัว ชั้น 2'],
    addr: [
      '315 Phaya Thai Road, Thanon Phetchaburi, Ratchathewi, Bangkok 10400',
      '315 ถนนพญาไท แขวงถนนเพชรบุรี เขตราชเทวี กรุงเทพมหานคร 10400',
    ],
    provinceId: P.bangkok,
    tel: '02-011-1223',
  },
  {
    key: 'scSukhumvit49',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Sukhumvit 49', 'โรงพยาบาลสยามแคร์ สุขุมวิท 49'],
    at: [13.734, 100.579],
    hoursType: '24H',
    meaId: '000101579044',
    desc: ['2 DC chargers next to the emergency entrance.', 'เครื่องชาร์จ DC 2 หัว ข้างทางเข้าห้องฉุกเฉิน'],
    addr: [
      '133 Sukhumvit Soi 49, Khlong Tan Nuea, Watthana, Bangkok 10110',
      '133 ซอยสุขุมวิท 49 แขวงคลองตันเหนือ เขตวัฒนา กรุงเทพมหานคร 10110',
    ],
    provinceId: P.bangkok,
    tel: '02-011-1224',
  },
  {
    key: 'scChiangMai',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Chiang Mai', 'โรงพยาบาลสยามแคร์ เชียงใหม่'],
    at: [18.7883, 98.9853],
    hoursType: '24H',
    peaId: '020010985345',
    desc: ['4 AC chargers in the outpatient car park.', 'เครื่องชาร์จ AC 4 หัว ลานจอดรถผู้ป่วยนอก'],
    addr: [
      '88 Boonruangrit Road, Si Phum, Mueang Chiang Mai, Chiang Mai 50200',
      '88 ถนนบุญเรืองฤทธิ์ ตำบลศรีภูมิ อำเภอเมืองเชียงใหม่ จังหวัดเชียงใหม่ 50200',
    ],
    provinceId: P.chiangMai,
    tel: '053-920-225',
  },
  {
    key: 'scHatYai',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Hat Yai', 'โรงพยาบาลสยามแคร์ หาดใหญ่'],
    at: [7.0086, 100.4747],
    hoursType: '24H',
    peaId: '020064474746',
    desc: ['2 DC chargers, serves travellers from Malaysia.', 'เครื่องชาร์จ DC 2 หัว รองรับผู้เดินทางจากมาเลเซีย'],
    addr: [
      '44 Niphat Uthit 1 Road, Hat Yai, Hat Yai, Songkhla 90110',
      '44 ถนนนิพัทธ์อุทิศ 1 ตำบลหาดใหญ่ อำเภอหาดใหญ่ จังหวัดสงขลา 90110',
    ],
    provinceId: P.songkhla,
    tel: '074-272-226',
  },
  {
    key: 'scUdon',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Udon Thani', 'โรงพยาบาลสยามแคร์ อุดรธานี'],
    at: [17.408, 102.793],
    hoursType: 'maintenance',
    peaId: '020073793047',
    desc: ['Transformer upgrade, back in service soon.', 'ปรับปรุงหม้อแปลงไฟฟ้า เปิดให้บริการอีกครั้งเร็ว ๆ นี้'],
    addr: [
      '12 Pho Si Road, Mak Khaeng, Mueang Udon Thani, Udon Thani 41000',
      '12 ถนนโพศรี ตำบลหมากแข้ง อำเภอเมืองอุดรธานี จังหวัดอุดรธานี 41000',
    ],
    provinceId: P.udon,
    tel: '042-343-227',
  },
  {
    key: 'scKhonKaen',
    cluster: 'siamCare',
    name: ['Siam Care Hospital Khon Kaen', 'โรงพยาบาลสยามแคร์ ขอนแก่น'],
    at: [16.44, 102.828],
    hoursType: '24H',
    peaId: '020017828048',
    desc: ['4 AC chargers behind the main building.', 'เครื่องชาร์จ AC 4 หัว หลังอาคารหลัก'],
    addr: [
      '56 Sri Chan Road, Nai Mueang, Mueang Khon Kaen, Khon Kaen 40000',
      '56 ถนนศรีจันทร์ ตำบลในเมือง อำเภอเมืองขอนแก่น จังหวัดขอนแก่น 40000',
    ],
    provinceId: P.khonKaen,
    tel: '043-333-228',
  },

  // Lanna Road Stop Cafés: northern rest stops.
  {
    key: 'lsMaeRim',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Mae Rim', 'ลานนา โรดสต็อป แม่ริม'],
    at: [18.914, 98.944],
    hoursType: 'period',
    hours: ROAD_STOP_HOURS,
    peaId: '020010944049',
    desc: [
      'Café stop on the way to Mae Sa valley, 2 DC chargers.',
      'คาเฟ่ระหว่างทางไปหุบเขาแม่สา เครื่องชาร์จ DC 2 หัว',
    ],
    addr: [
      '199 Moo 1 Chotana Road, Rim Tai, Mae Rim, Chiang Mai 50180',
      '199 หมู่ 1 ถนนโชตนา ตำบลริมใต้ อำเภอแม่ริม จังหวัดเชียงใหม่ 50180',
    ],
    provinceId: P.chiangMai,
    tel: '053-297-101',
  },
  {
    key: 'lsDoiSaket',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Doi Saket', 'ลานนา โรดสต็อป ดอยสะเก็ด'],
    at: [18.873, 99.138],
    hoursType: 'period',
    hours: ROAD_STOP_HOURS,
    peaId: '020010138050',
    desc: ['On Highway 118 towards Chiang Rai.', 'ริมทางหลวง 118 มุ่งหน้าเชียงราย'],
    addr: [
      '55 Moo 3 Chiang Mai–Chiang Rai Road, Choeng Doi, Doi Saket, Chiang Mai 50220',
      '55 หมู่ 3 ถนนเชียงใหม่-เชียงราย ตำบลเชิงดอย อำเภอดอยสะเก็ด จังหวัดเชียงใหม่ 50220',
    ],
    provinceId: P.chiangMai,
    tel: '053-495-102',
  },
  {
    key: 'lsLamphun',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Lamphun', 'ลานนา โรดสต็อป ลำพูน'],
    at: [18.5745, 99.0087],
    hoursType: 'period',
    hours: ROAD_STOP_HOURS,
    peaId: '020020008751',
    desc: ['Near Wat Phra That Hariphunchai, 2 AC chargers.', 'ใกล้วัดพระธาตุหริภุญชัย เครื่องชาร์จ AC 2 หัว'],
    addr: [
      '23 Inthayongyot Road, Nai Mueang, Mueang Lamphun, Lamphun 51000',
      '23 ถนนอินทยงยศ ตำบลในเมือง อำเภอเมืองลำพูน จังหวัดลำพูน 51000',
    ],
    provinceId: P.lamphun,
    tel: '053-511-103',
  },
  {
    key: 'lsChiangRai',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Chiang Rai Clock Tower', 'ลานนา โรดสต็อป หอนาฬิกาเชียงราย'],
    at: [19.9071, 99.8305],
    hoursType: 'period',
    hours: ROAD_STOP_HOURS,
    peaId: '020011830552',
    desc: ['In town, a short walk from the clock tower.', 'กลางเมือง เดินไปหอนาฬิกาได้'],
    addr: [
      '8 Banphaprakan Road, Wiang, Mueang Chiang Rai, Chiang Rai 57000',
      '8 ถนนบรรพปราการ ตำบลเวียง อำเภอเมืองเชียงราย จังหวัดเชียงราย 57000',
    ],
    provinceId: P.chiangRai,
    tel: '053-711-104',
  },
  {
    key: 'lsMaeKachan',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Mae Khachan', 'ลานนา โรดสต็อป แม่ขะจาน'],
    at: [19.22, 99.51],
    hoursType: 'period',
    hours: ROAD_STOP_HOURS,
    peaId: '020011510053',
    desc: ['Hot-spring rest stop halfway to Chiang Rai.', 'จุดพักน้ำพุร้อน กึ่งกลางทางไปเชียงราย'],
    addr: [
      '9 Moo 9 Highway 118, Mae Chedi Mai, Wiang Pa Pao, Chiang Rai 57260',
      '9 หมู่ 9 ทางหลวง 118 ตำบลแม่เจดีย์ใหม่ อำเภอเวียงป่าเป้า จังหวัดเชียงราย 57260',
    ],
    provinceId: P.chiangRai,
    tel: '053-781-105',
  },
  {
    key: 'lsPai',
    cluster: 'lannaStop',
    name: ['Lanna Road Stop Pai', 'ลานนา โรดสต็อป ปาย'],
    at: [19.3583, 98.4418],
    hoursType: 'closed',
    peaId: '020023441854',
    desc: ['Closed for the rainy season.', 'ปิดช่วงฤดูฝน'],
    addr: [
      '77 Rangsiyanon Road, Wiang Tai, Pai, Mae Hong Son 58130',
      '77 ถนนรังสิยานนท์ ตำบลเวียงใต้ อำเภอปาย จังหวัดแม่ฮ่องสอน 58130',
    ],
    provinceId: P.maeHongSon,
    active: false,
  },

  // Isan Mart Community Malls.
  {
    key: 'imKhonKaen',
    cluster: 'isanMart',
    name: ['Isan Mart Khon Kaen Central', 'อีสานมาร์ท ขอนแก่น ใจกลางเมือง'],
    at: [16.4322, 102.8236],
    hoursType: 'period',
    hours: COMMUNITY_MALL_HOURS,
    peaId: '020017823655',
    desc: ['4 DC chargers in front of the supermarket.', 'เครื่องชาร์จ DC 4 หัว หน้าซูเปอร์มาร์เก็ต'],
    addr: [
      '277 Mittraphap Road, Nai Mueang, Mueang Khon Kaen, Khon Kaen 40000',
      '277 ถนนมิตรภาพ ตำบลในเมือง อำเภอเมืองขอนแก่น จังหวัดขอนแก่น 40000',
    ],
    provinceId: P.khonKaen,
    tel: '043-242-901',
  },
  {
    key: 'imKorat',
    cluster: 'isanMart',
    name: ['Isan Mart Korat Terminal', 'อีสานมาร์ท โคราช เทอร์มินอล'],
    at: [14.9799, 102.0977],
    hoursType: 'period',
    hours: COMMUNITY_MALL_HOURS,
    peaId: '020029097756',
    desc: [
      '2 DC and 4 AC chargers near Thao Suranari Monument.',
      'เครื่องชาร์จ DC 2 หัว AC 4 หัว ใกล้อนุสาวรีย์ท้าวสุรนารี',
    ],
    addr: [
      '99 Ratchadamnoen Road, Nai Mueang, Mueang Nakhon Ratchasima, Nakhon Ratchasima 30000',
      '99 ถนนราชดำเนิน ตำบลในเมือง อำเภอเมืองนครราชสีมา จังหวัดนครราชสีมา 30000',
    ],
    provinceId: P.nakhonRatchasima,
    tel: '044-242-902',
  },
  {
    key: 'imUdon',
    cluster: 'isanMart',
    name: ['Isan Mart Udon Thani', 'อีสานมาร์ท อุดรธานี'],
    at: [17.4138, 102.7872],
    hoursType: 'period',
    hours: COMMUNITY_MALL_HOURS,
    peaId: '020073787257',
    desc: ['Next to Nong Prajak Park, 2 DC chargers.', 'ติดสวนสาธารณะหนองประจักษ์ เครื่องชาร์จ DC 2 หัว'],
    addr: [
      '45 Prajak Sillapakhom Road, Mak Khaeng, Mueang Udon Thani, Udon Thani 41000',
      '45 ถนนประจักษ์ศิลปาคม ตำบลหมากแข้ง อำเภอเมืองอุดรธานี จังหวัดอุดรธานี 41000',
    ],
    provinceId: P.udon,
    tel: '042-242-903',
  },
  {
    key: 'imUbon',
    cluster: 'isanMart',
    name: ['Isan Mart Ubon Ratchathani', 'อีสานมาร์ท อุบลราชธานี'],
    at: [15.2287, 104.8564],
    hoursType: 'period',
    hours: COMMUNITY_MALL_HOURS,
    peaId: '020072856458',
    desc: ['2 AC chargers, the first in the mall car park.', 'เครื่องชาร์จ AC 2 หัว จุดแรกในลานจอดรถของห้าง'],
    addr: [
      '311 Chayangkun Road, Nai Mueang, Mueang Ubon Ratchathani, Ubon Ratchathani 34000',
      '311 ถนนชยางกูร ตำบลในเมือง อำเภอเมืองอุบลราชธานี จังหวัดอุบลราชธานี 34000',
    ],
    provinceId: P.ubon,
    tel: '045-242-904',
  },
  {
    key: 'imRoiEt',
    cluster: 'isanMart',
    name: ['Isan Mart Roi Et', 'อีสานมาร์ท ร้อยเอ็ด'],
    at: [16.0538, 103.652],
    hoursType: 'comingsoon',
    peaId: '020054652059',
    desc: ['Opening with the new mall wing.', 'เปิดให้บริการพร้อมอาคารใหม่ของห้าง'],
    addr: [
      '8 Ratchakan Damnoen Road, Nai Mueang, Mueang Roi Et, Roi Et 45000',
      '8 ถนนราชการดำเนิน ตำบลในเมือง อำเภอเมืองร้อยเอ็ด จังหวัดร้อยเอ็ด 45000',
    ],
    provinceId: P.roiEt,
  },
  {
    key: 'imNongKhai',
    cluster: 'isanMart',
    name: ['Isan Mart Nong Khai Riverside', 'อีสานมาร์ท หนองคาย ริมโขง'],
    at: [17.8783, 102.742],
    hoursType: 'period',
    hours: [...days(WEEKDAYS, '08:00', '20:00'), ...days(WEEKEND, '10:00', '22:00')],
    peaId: '020035742060',
    desc: ['By the Mekong promenade, near the Lao border.', 'ริมเขื่อนแม่น้ำโขง ใกล้ชายแดนลาว'],
    addr: [
      '567 Rimkhong Road, Nai Mueang, Mueang Nong Khai, Nong Khai 43000',
      '567 ถนนริมโขง ตำบลในเมือง อำเภอเมืองหนองคาย จังหวัดหนองคาย 43000',
    ],
    provinceId: P.nongKhai,
    tel: '042-242-905',
  },

  // Riverside Parking Co.: the inactive cluster, its sites inactive too.
  {
    key: 'rpThaTien',
    cluster: 'riverside',
    name: ['Tha Tien Pier Car Park', 'ลานจอดรถท่าเตียน'],
    at: [13.7465, 100.492],
    hoursType: 'closed',
    meaId: '000101492061',
    desc: ['Closed; operator stopped service.', 'ปิดให้บริการ ผู้ประกอบการหยุดกิจการ'],
    addr: [
      '12 Maha Rat Road, Phra Borom Maha Ratchawang, Phra Nakhon, Bangkok 10200',
      '12 ถนนมหาราช แขวงพระบรมมหาราชวัง เขตพระนคร กรุงเทพมหานคร 10200',
    ],
    provinceId: P.bangkok,
    active: false,
  },
  {
    key: 'rpYaowarat',
    cluster: 'riverside',
    name: ['Yaowarat Parking Building', 'อาคารจอดรถเยาวราช'],
    at: [13.741, 100.509],
    hoursType: 'maintenance',
    meaId: '000101509062',
    desc: ['Building under structural repair.', 'อาคารอยู่ระหว่างซ่อมแซมโครงสร้าง'],
    addr: [
      '215 Yaowarat Road, Samphanthawong, Samphanthawong, Bangkok 10100',
      '215 ถนนเยาวราช แขวงสัมพันธวงศ์ เขตสัมพันธวงศ์ กรุงเทพมหานคร 10100',
    ],
    provinceId: P.bangkok,
    active: false,
  },
];

export const DEMO_GROUPS: readonly DemoGroup[] = [
  {
    key: 'bangkokMalls',
    name: ['Bangkok Shopping Malls', 'ศูนย์การค้าในกรุงเทพฯ'],
    active: true,
    sites: [
      'siamSquareB2',
      'ratchaprasong',
      'chatuchak',
      'asok',
      'silom',
      'iconRiverside',
      'seacon',
      'bangnaMega',
    ],
  },
  {
    key: 'southernBeaches',
    name: ['Southern Beaches', 'ชายหาดภาคใต้'],
    active: true,
    sites: ['glPatong', 'glKata', 'glAoNang', 'glChaweng', 'glHuaHin', 'twHuaHin', 'scHatYai', 'glPattaya'],
  },
  {
    key: 'northernRoute',
    name: ['Northern Route', 'เส้นทางภาคเหนือ'],
    active: true,
    sites: [
      'twAyutthaya',
      'twNakhonSawan',
      'twPhitsanulok',
      'twLampang',
      'lsLamphun',
      'glNimman',
      'lsMaeRim',
      'lsDoiSaket',
      'lsMaeKachan',
      'lsChiangRai',
    ],
  },
  {
    key: 'corporateFleet',
    name: ['Corporate Fleet', 'ยานพาหนะองค์กร'],
    active: true,
    sites: ['bgTowerA', 'bgTowerB', 'bgDepot', 'cptuEngineering', 'cptuLibrary', 'twVibhavadi'],
  },
];

/** Which demo users (by email) belong to which cluster, site or group. */
export const DEMO_USER_PLACES: Readonly<
  Record<string, { cluster?: DemoClusterKey; site?: string; group?: string }>
> = {
  'cluster@example.com': { cluster: 'metroPlaza' },
  'site@example.com': { site: 'siamSquareB2' },
  'group@example.com': { group: 'bangkokMalls' },
  'station@example.com': { group: 'northernRoute' },
};
