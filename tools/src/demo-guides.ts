/**
 * Demo tutorials (pages of type guide), English and Thai, written as the editor writes them (fonts through
 * `style="font-family"`, the Thai text in the bundled Thai fonts). Three are displayed in the app (weights 1
 * to 3), one is ready but not displayed, one is switched off.
 */
export interface DemoGuide {
  titleEn: string;
  titleTh: string;
  detailEn: string;
  detailTh: string;
  active: boolean;
  weight: number;
}

const en = (html: string) => `<div style="font-family:Arial, sans-serif">${html}</div>`;
const th = (font: string, html: string) => `<div style="font-family:${font}, sans-serif">${html}</div>`;

export const DEMO_GUIDES: DemoGuide[] = [
  {
    titleEn: 'How to find a charging station',
    titleTh: 'วิธีค้นหาสถานีชาร์จ',
    active: true,
    weight: 1,
    detailEn: en(
      '<h2>Find a station near you</h2>' +
        '<p>Open the <strong>Map</strong> tab. Stations near you appear as pins; the colour shows whether a charger is free.</p>' +
        '<ol><li>Allow location access so the app can suggest the nearest stations.</li>' +
        '<li>Tap a pin to see the connectors, their power and the price.</li>' +
        '<li>Tap <strong>Navigate</strong> to open directions.</li></ol>' +
        '<p style="color:#1677ff">Tip: filter by connector type (Type 2, CCS2, CHAdeMO) to see only stations that fit your car.</p>',
    ),
    detailTh: th(
      'Prompt',
      '<h2>ค้นหาสถานีใกล้คุณ</h2>' +
        '<p>เปิดแท็บ <strong>แผนที่</strong> สถานีใกล้คุณจะแสดงเป็นหมุด สีของหมุดบอกว่ามีเครื่องชาร์จว่างหรือไม่</p>' +
        '<ol><li>อนุญาตให้แอปเข้าถึงตำแหน่ง เพื่อแนะนำสถานีที่ใกล้ที่สุด</li>' +
        '<li>แตะหมุดเพื่อดูหัวชาร์จ กำลังไฟ และราคา</li>' +
        '<li>แตะ <strong>นำทาง</strong> เพื่อเปิดเส้นทาง</li></ol>' +
        '<p style="color:#1677ff">เคล็ดลับ: กรองตามประเภทหัวชาร์จ (Type 2, CCS2, CHAdeMO) เพื่อดูเฉพาะสถานีที่ใช้กับรถของคุณได้</p>',
    ),
  },
  {
    titleEn: 'Booking a charging slot',
    titleTh: 'การจองเวลาชาร์จ',
    active: true,
    weight: 2,
    detailEn: en(
      '<h2>Book up to one day ahead</h2>' +
        '<p>Choose a station, a connector and a start time. A slot can be booked at most <strong>1 day</strong> ahead.</p>' +
        '<table style="border-collapse:collapse;width:100%"><thead><tr>' +
        '<th style="border:1px solid #d9d9d9">Step</th><th style="border:1px solid #d9d9d9">What to do</th></tr></thead><tbody>' +
        '<tr><td style="border:1px solid #d9d9d9">1</td><td style="border:1px solid #d9d9d9">Pick the connector and time</td></tr>' +
        '<tr><td style="border:1px solid #d9d9d9">2</td><td style="border:1px solid #d9d9d9">Check in on the parking bay before charging</td></tr>' +
        '<tr><td style="border:1px solid #d9d9d9">3</td><td style="border:1px solid #d9d9d9">Pay and check out within your slot</td></tr>' +
        '</tbody></table>',
    ),
    detailTh: th(
      'Kanit',
      '<h2>จองล่วงหน้าได้สูงสุด 1 วัน</h2>' +
        '<p>เลือกสถานี หัวชาร์จ และเวลาเริ่ม จองล่วงหน้าได้ไม่เกิน <strong>1 วัน</strong></p>' +
        '<table style="border-collapse:collapse;width:100%"><thead><tr>' +
        '<th style="border:1px solid #d9d9d9">ขั้นตอน</th><th style="border:1px solid #d9d9d9">สิ่งที่ต้องทำ</th></tr></thead><tbody>' +
        '<tr><td style="border:1px solid #d9d9d9">1</td><td style="border:1px solid #d9d9d9">เลือกหัวชาร์จและเวลา</td></tr>' +
        '<tr><td style="border:1px solid #d9d9d9">2</td><td style="border:1px solid #d9d9d9">เช็กอินที่ช่องจอดก่อนเริ่มชาร์จ</td></tr>' +
        '<tr><td style="border:1px solid #d9d9d9">3</td><td style="border:1px solid #d9d9d9">ชำระเงินและเช็กเอาต์ภายในเวลาที่จอง</td></tr>' +
        '</tbody></table>',
    ),
  },
  {
    titleEn: 'Paying for a charge',
    titleTh: 'การชำระค่าชาร์จ',
    active: true,
    weight: 3,
    detailEn: en(
      '<h2>Ways to pay</h2>' +
        '<ul><li>Credit / Debit Card</li><li>QR PromptPay</li><li>TrueMoney Wallet</li><li>LINE Pay</li></ul>' +
        '<p>Before each charge the card is <em>pre-authorised</em>. If the fee is lower and the session ends before 21:00, ' +
        'the difference is returned the same day.</p>' +
        '<p style="text-align:center"><span style="font-size:18px;color:#389e0d"><strong>Earn green points on every charge!</strong></span></p>',
    ),
    detailTh: th(
      'Sarabun',
      '<h2>ช่องทางการชำระเงิน</h2>' +
        '<ul><li>บัตรเครดิต / เดบิต</li><li>QR พร้อมเพย์</li><li>ทรูมันนี่ วอลเล็ท</li><li>LINE Pay</li></ul>' +
        '<p>ก่อนการชาร์จแต่ละครั้ง ระบบจะ<em>กันวงเงิน</em>ในบัตร หากค่าบริการต่ำกว่าและการชาร์จจบก่อน 21:00 น. ' +
        'ส่วนต่างจะคืนภายในวันเดียวกัน</p>' +
        '<p style="text-align:center"><span style="font-size:18px;color:#389e0d"><strong>รับกรีนพอยต์ทุกครั้งที่ชาร์จ!</strong></span></p>',
    ),
  },
  {
    titleEn: 'Charging safely',
    titleTh: 'ชาร์จอย่างปลอดภัย',
    active: true,
    weight: 0,
    detailEn: en(
      '<h2>Safety first</h2>' +
        '<p>Check the cable and the connector before plugging in. Never charge with a damaged cable.</p>' +
        '<p style="margin-left:25px">If anything looks wrong, stop the session in the app and call the station: ' +
        '<a href="tel:021234567">02-123-4567</a>.</p>',
    ),
    detailTh: th(
      '&quot;Noto Sans Thai&quot;',
      '<h2>ความปลอดภัยมาก่อน</h2>' +
        '<p>ตรวจสายชาร์จและหัวชาร์จก่อนเสียบทุกครั้ง ห้ามใช้สายที่ชำรุด</p>' +
        '<p style="margin-left:25px">หากพบสิ่งผิดปกติ ให้หยุดการชาร์จในแอปและโทรหาสถานี ' +
        '<a href="tel:021234567">02-123-4567</a></p>',
    ),
  },
  {
    titleEn: 'Green points (old rules)',
    titleTh: 'กรีนพอยต์ (กติกาเดิม)',
    active: false,
    weight: 0,
    detailEn: en(
      '<h2>Green points</h2><p><s>Points expire after 6 months.</s> Replaced by the new rules.</p>' +
        '<p>See <a href="https://www.example.com/points" target="_blank" rel="noopener noreferrer nofollow">the current rules</a>.</p>',
    ),
    detailTh: th(
      'Pridi',
      '<h2>กรีนพอยต์</h2><p><s>คะแนนหมดอายุใน 6 เดือน</s> ใช้กติกาใหม่แทนแล้ว</p>' +
        '<p>ดู<a href="https://www.example.com/points" target="_blank" rel="noopener noreferrer nofollow">กติกาปัจจุบัน</a></p>',
    ),
  },
];
