/** Demo terms and privacy pages (English and Thai). */
export const TERMS = {
  titleEn: 'Terms and Conditions',
  titleTh: 'ข้อกำหนดและเงื่อนไข',
  detailEn: '<h2>Terms and Conditions</h2><p>Draft.</p>',
  detailTh: '<h2>ข้อกำหนดและเงื่อนไข</h2><p>ฉบับร่าง</p>',
};
export const PRIVACY = {
  titleEn: 'Privacy Policy',
  titleTh: 'นโยบายความเป็นส่วนตัว',
  detailEn: '<h2>Privacy Policy</h2><p>Draft.</p>',
  detailTh: '<h2>นโยบายความเป็นส่วนตัว</h2><p>ฉบับร่าง</p>',
};
