/**
 * Demo terms and privacy pages (English and Thai).
 * The provider, its address and its contacts are fictitious. The HTML uses only simple tags
 * (h2, h3, p, ul, ol, li, strong, em, a with href) so that it renders in the rich-text box and on public pages.
 */

const CONTACT_EN = [
  '<li>Address: 99/9 Example Tower, 12th Floor, Rama IV Road, Khlong Toei, Khlong Toei, Bangkok 10110</li>',
  '<li>Phone: 02-123-4567</li>',
  '<li>Email: <a href="mailto:support@example.com">support@example.com</a></li>',
].join('');

const CONTACT_TH = [
  '<li>ที่อยู่: เลขที่ 99/9 อาคารเอ็กแซมเปิล ทาวเวอร์ ชั้น 12 ถนนพระรามที่ 4 แขวงคลองเตย เขตคลองเตย กรุงเทพมหานคร 10110</li>',
  '<li>โทรศัพท์: 02-123-4567</li>',
  '<li>อีเมล: <a href="mailto:support@example.com">support@example.com</a></li>',
].join('');

const TERMS_EN = [
  '<h2>Terms and Conditions</h2>',
  '<p><strong>Effective date: 1 November 2026</strong></p>',
  '<p>These Terms and Conditions ("Terms") govern your use of the electric vehicle charging service of EV Charge Thailand Co., Ltd. ("the Company", "we" or "us"), including its mobile application, website and charging stations (together, the "Service"). By registering for or using the Service, you confirm that you have read, understood and accepted these Terms. If you do not accept them, please do not use the Service.</p>',

  '<h3>1. The Service</h3>',
  '<p>The Service lets drivers of electric vehicles, both two-wheel and four-wheel, whether battery electric vehicles (BEV) or plug-in hybrid electric vehicles (PHEV), find charging stations, schedule a charging slot, check in, charge, pay and check out through our mobile application (the "App"). The stations, charging points, connector types and charging power available may vary by location and over time.</p>',

  '<h3>2. Eligibility</h3>',
  "<p>To register for the Service, you must hold a valid driver's licence that covers the type of vehicle you charge. If you do not hold a driver's licence, you may register only if you are an adult (of legal age under Thai law) and the vehicle is driven by a licensed driver acting under your direction. You are responsible for making sure that anyone who drives the vehicle on your behalf complies with these Terms.</p>",

  '<h3>3. Registration and your account</h3>',
  '<p>You can sign up in either of the following ways:</p>',
  '<ul>',
  '<li>by giving your email address, a password, your mobile phone number and your payment card details; or</li>',
  '<li>by linking your Apple, Facebook or Google account.</li>',
  '</ul>',
  '<p>Whichever way you sign up, a valid payment card must be registered before you start charging, because every use of the Service requires a card pre-authorization (see section 7).</p>',
  '<p>Each user may hold only one account, and accounts are personal. You may not share, transfer, sell or lend your account, or open an account on behalf of another person. You must give accurate and complete information and keep it up to date. You must keep your password and sign-in details confidential, and you are responsible for all activity under your account. If you believe that someone has used your account without your permission, please contact us immediately.</p>',

  '<h3>4. Deleting your account</h3>',
  '<p>You may delete your account at any time in the App or by contacting us. Deleting your account does not release you from paying any fees, fines or other amounts you still owe. The Company may delete any account that has not been used for more than one (1) year. Personal data related to a deleted account is handled as described in our Privacy Policy.</p>',

  '<h3>5. Location access</h3>',
  "<p>The App needs access to your device's location to suggest charging stations near you. You can turn off location access in your device settings at any time, but the App may then be unable to suggest nearby stations, and some features may not work fully.</p>",

  '<h3>6. Scheduling, check-in and check-out</h3>',
  '<ol>',
  '<li><strong>Scheduling.</strong> You can schedule a charging slot at most one (1) day in advance. A scheduled slot is reserved for your account only for its scheduled time.</li>',
  '<li><strong>Check-in.</strong> When you arrive, park your vehicle in the bay of the charging point you scheduled, and check in through the App before you start charging.</li>',
  '<li><strong>Charging.</strong> Follow the instructions shown in the App and on the charging equipment, and use only connectors and cables suitable for your vehicle.</li>',
  '<li><strong>Payment and check-out.</strong> You must stop charging, pay and check out in the App within your scheduled slot, and move your vehicle out of the bay so that the next user can charge.</li>',
  '</ol>',

  '<h3>7. Fees, pre-authorization and payment</h3>',
  '<p>Charging fee rates are set by the Company and shown in the App. Rates may differ between stations and charging points and may change from time to time; the current rates are always shown in the App.</p>',
  '<p>Before every use of the Service, we make a pre-authorization on your registered payment card, which temporarily holds an amount on your card. When your session ends, you are charged the actual fee for that session.</p>',
  '<ul>',
  '<li>If the actual fee is lower than the pre-authorized amount and your session ends before 21:00, the difference is returned to your card on the same day.</li>',
  '<li>If your session ends at or after 21:00, the difference is returned within 7 to 14 business days, depending on the bank that issued your card.</li>',
  "<li>If the pre-authorization fails because of your card's credit limit, the Company will refuse the Service for that use.</li>",
  '</ul>',
  '<p>All amounts are in Thai baht.</p>',

  '<h3>8. Cancellation and overstay fines</h3>',
  '<p>To keep charging points available for everyone, the Company may charge:</p>',
  '<ul>',
  '<li>a <strong>cancellation fine</strong> when you cancel a scheduled slot; and</li>',
  '<li>an <strong>overstay fine</strong> when your vehicle stays at the charging point after your scheduled slot has ended.</li>',
  '</ul>',
  '<p>The amounts of these fines and the conditions under which they apply are set by the Company and shown in the App. Fines are charged to your registered payment card.</p>',

  '<h3>9. Your responsibilities</h3>',
  '<p>You agree to:</p>',
  '<ul>',
  '<li>use the Service and the charging equipment only to charge a compatible vehicle, following the instructions in the App, the signs at the station and the directions of our staff;</li>',
  '<li>not damage, tamper with or misuse the charging equipment, and report any fault, damage or safety hazard to us immediately;</li>',
  '<li>follow traffic and parking rules and the rules of the site where the station is located;</li>',
  '<li>not use the Service for any unlawful purpose, or in any way that disturbs other users or the operation of the Service; and</li>',
  '<li>keep your vehicle, charging cable and connectors in good and safe condition.</li>',
  '</ul>',
  '<p>You are responsible for any loss or damage caused by your breach of these Terms or by your misuse of the Service.</p>',

  '<h3>10. Changes to and suspension of the Service</h3>',
  "<p>The Company may stop, suspend, deny or change all or part of the Service, including stations, charging points, features, opening hours and fee rates, at any time and without prior notice, for example for maintenance, for safety reasons, or because of technical problems, power outages or misuse. The Company may also refuse the Service to any user who breaches these Terms, or suspend or close that user's account.</p>",

  '<h3>11. Limitation of liability</h3>',
  '<p>To the extent permitted by law, the Company is liable only for direct loss or damage that you can prove was caused by a deliberate act or gross negligence of the Company or of persons acting on its behalf. The Company is not liable for any indirect or consequential loss, including loss of profit, income, time or opportunity. Nothing in these Terms limits any liability that cannot be limited under Thai law.</p>',

  '<h3>12. Changes to these Terms</h3>',
  '<p>The Company may amend these Terms from time to time and will publish the amended Terms in the App together with their effective date. If you continue to use the Service after the amended Terms take effect, you are deemed to have accepted them.</p>',

  '<h3>13. Governing law</h3>',
  '<p>These Terms are governed by and interpreted in accordance with the laws of Thailand. Any dispute is subject to the jurisdiction of the Thai courts. These Terms are made in Thai and English; if the two versions are inconsistent, the Thai version prevails.</p>',

  '<h3>14. Contact us</h3>',
  '<ul>',
  '<li><strong>EV Charge Thailand Co., Ltd.</strong></li>',
  CONTACT_EN,
  '</ul>',

  '<h3>15. Privacy</h3>',
  '<p>Our Privacy Policy explains how we collect, use, disclose and protect your personal data when you use the Service. Please read it together with these Terms.</p>',
].join('');

const TERMS_TH = [
  '<h2>ข้อกำหนดและเงื่อนไข</h2>',
  '<p><strong>มีผลบังคับใช้ตั้งแต่วันที่ 1 พฤศจิกายน 2569</strong></p>',
  '<p>ข้อกำหนดและเงื่อนไขฉบับนี้ ("ข้อกำหนด") ใช้บังคับกับการใช้บริการชาร์จยานยนต์ไฟฟ้าของบริษัท อีวี ชาร์จ ไทยแลนด์ จำกัด ("บริษัท" หรือ "เรา") ซึ่งรวมถึงแอปพลิเคชันบนโทรศัพท์มือถือ เว็บไซต์ และสถานีชาร์จของบริษัท (รวมเรียกว่า "บริการ") เมื่อท่านลงทะเบียนหรือใช้บริการ ถือว่าท่านได้อ่าน เข้าใจ และยอมรับข้อกำหนดนี้แล้ว หากท่านไม่ยอมรับ โปรดงดใช้บริการ</p>',

  '<h3>1. บริการ</h3>',
  '<p>บริการนี้ช่วยให้ผู้ขับขี่ยานยนต์ไฟฟ้าทั้งแบบสองล้อและสี่ล้อ ไม่ว่าจะเป็นยานยนต์ไฟฟ้าแบตเตอรี่ (BEV) หรือยานยนต์ไฟฟ้าแบบปลั๊กอินไฮบริด (PHEV) สามารถค้นหาสถานีชาร์จ จองช่วงเวลาชาร์จ เช็กอิน ชาร์จไฟ ชำระเงิน และเช็กเอาต์ได้ผ่านแอปพลิเคชันบนโทรศัพท์มือถือของเรา ("แอป") ทั้งนี้ สถานี หัวชาร์จ ประเภทหัวเชื่อมต่อ และกำลังไฟในการชาร์จที่ให้บริการอาจแตกต่างกันไปตามสถานที่และช่วงเวลา</p>',

  '<h3>2. คุณสมบัติของผู้ใช้บริการ</h3>',
  '<p>ผู้ที่จะลงทะเบียนใช้บริการต้องมีใบอนุญาตขับขี่ที่ยังมีผลใช้ได้และครอบคลุมประเภทของยานพาหนะที่นำมาชาร์จ หากท่านไม่มีใบอนุญาตขับขี่ ท่านจะลงทะเบียนได้เฉพาะในกรณีที่ท่านบรรลุนิติภาวะตามกฎหมายไทย และยานพาหนะนั้นขับขี่โดยผู้มีใบอนุญาตขับขี่ซึ่งขับขี่ตามการสั่งการของท่าน ท่านมีหน้าที่ดูแลให้ผู้ที่ขับขี่ยานพาหนะแทนท่านปฏิบัติตามข้อกำหนดนี้ด้วย</p>',

  '<h3>3. การลงทะเบียนและบัญชีผู้ใช้</h3>',
  '<p>ท่านสามารถสมัครใช้บริการได้ด้วยวิธีใดวิธีหนึ่งดังต่อไปนี้</p>',
  '<ul>',
  '<li>ระบุอีเมล รหัสผ่าน หมายเลขโทรศัพท์มือถือ และข้อมูลบัตรชำระเงินของท่าน หรือ</li>',
  '<li>เชื่อมโยงบัญชี Apple, Facebook หรือ Google ของท่าน</li>',
  '</ul>',
  '<p>ไม่ว่าจะสมัครด้วยวิธีใด ท่านต้องลงทะเบียนบัตรชำระเงินที่ใช้งานได้ก่อนเริ่มชาร์จ เนื่องจากการใช้บริการทุกครั้งต้องมีการขออนุมัติวงเงินล่วงหน้าจากบัตร (ดูข้อ 7)</p>',
  '<p>ผู้ใช้แต่ละรายมีบัญชีได้เพียงบัญชีเดียว และบัญชีเป็นสิทธิเฉพาะตัวของผู้ใช้ ท่านไม่สามารถแบ่งปัน โอน ขาย หรือให้ผู้อื่นยืมใช้บัญชี หรือเปิดบัญชีแทนผู้อื่นได้ ท่านต้องให้ข้อมูลที่ถูกต้องครบถ้วน และปรับปรุงข้อมูลให้เป็นปัจจุบันอยู่เสมอ ท่านต้องเก็บรักษารหัสผ่านและข้อมูลการเข้าสู่ระบบไว้เป็นความลับ และต้องรับผิดชอบต่อการดำเนินการทั้งหมดที่เกิดขึ้นภายใต้บัญชีของท่าน หากท่านเชื่อว่ามีผู้ใช้บัญชีของท่านโดยไม่ได้รับอนุญาต โปรดติดต่อเราทันที</p>',

  '<h3>4. การลบบัญชี</h3>',
  '<p>ท่านสามารถลบบัญชีของท่านได้ทุกเมื่อผ่านแอปหรือโดยติดต่อเรา การลบบัญชีไม่ทำให้ท่านพ้นจากหน้าที่ชำระค่าบริการ ค่าปรับ หรือจำนวนเงินอื่นใดที่ยังค้างชำระ บริษัทอาจลบบัญชีที่ไม่มีการใช้งานเกินกว่าหนึ่ง (1) ปี ข้อมูลส่วนบุคคลที่เกี่ยวข้องกับบัญชีที่ถูกลบจะได้รับการจัดการตามที่ระบุไว้ในนโยบายความเป็นส่วนตัวของเรา</p>',

  '<h3>5. การเข้าถึงตำแหน่งที่ตั้ง</h3>',
  '<p>แอปจำเป็นต้องเข้าถึงตำแหน่งที่ตั้งของอุปกรณ์ของท่านเพื่อแนะนำสถานีชาร์จที่อยู่ใกล้ท่าน ท่านสามารถปิดการเข้าถึงตำแหน่งที่ตั้งได้ทุกเมื่อในการตั้งค่าของอุปกรณ์ แต่ในกรณีนั้นแอปอาจไม่สามารถแนะนำสถานีที่อยู่ใกล้เคียงได้ และฟีเจอร์บางส่วนอาจทำงานได้ไม่สมบูรณ์</p>',

  '<h3>6. การจอง การเช็กอิน และการเช็กเอาต์</h3>',
  '<ol>',
  '<li><strong>การจอง</strong> ท่านสามารถจองช่วงเวลาชาร์จล่วงหน้าได้ไม่เกินหนึ่ง (1) วัน ช่วงเวลาที่จองไว้จะสงวนไว้ให้บัญชีของท่านเฉพาะในช่วงเวลาดังกล่าวเท่านั้น</li>',
  '<li><strong>การเช็กอิน</strong> เมื่อมาถึงสถานี ให้จอดยานพาหนะในช่องจอดของหัวชาร์จที่ท่านจองไว้ และเช็กอินผ่านแอปก่อนเริ่มชาร์จ</li>',
  '<li><strong>การชาร์จ</strong> ปฏิบัติตามคำแนะนำที่แสดงในแอปและบนอุปกรณ์ชาร์จ และใช้เฉพาะหัวเชื่อมต่อและสายชาร์จที่เหมาะสมกับยานพาหนะของท่าน</li>',
  '<li><strong>การชำระเงินและการเช็กเอาต์</strong> ท่านต้องหยุดชาร์จ ชำระเงิน และเช็กเอาต์ผ่านแอปภายในช่วงเวลาที่จองไว้ และนำยานพาหนะออกจากช่องจอดเพื่อให้ผู้ใช้รายถัดไปใช้งานได้</li>',
  '</ol>',

  '<h3>7. ค่าบริการ การขออนุมัติวงเงินล่วงหน้า และการชำระเงิน</h3>',
  '<p>อัตราค่าบริการชาร์จกำหนดโดยบริษัทและแสดงไว้ในแอป อัตราค่าบริการอาจแตกต่างกันในแต่ละสถานีและหัวชาร์จ และอาจมีการเปลี่ยนแปลงเป็นครั้งคราว โดยอัตราปัจจุบันจะแสดงไว้ในแอปเสมอ</p>',
  '<p>ก่อนการใช้บริการทุกครั้ง เราจะขออนุมัติวงเงินล่วงหน้า (pre-authorization) จากบัตรชำระเงินที่ท่านลงทะเบียนไว้ ซึ่งเป็นการกันวงเงินจำนวนหนึ่งในบัตรไว้ชั่วคราว เมื่อการใช้บริการครั้งนั้นสิ้นสุดลง ท่านจะถูกเรียกเก็บค่าบริการตามจริงของการใช้บริการครั้งนั้น</p>',
  '<ul>',
  '<li>หากค่าบริการจริงต่ำกว่าวงเงินที่ได้รับอนุมัติล่วงหน้า และการใช้บริการสิ้นสุดลงก่อนเวลา 21:00 น. ส่วนต่างจะคืนเข้าบัตรของท่านภายในวันเดียวกัน</li>',
  '<li>หากการใช้บริการสิ้นสุดลงตั้งแต่เวลา 21:00 น. เป็นต้นไป ส่วนต่างจะคืนเข้าบัตรภายใน 7 ถึง 14 วันทำการ ขึ้นอยู่กับธนาคารผู้ออกบัตร</li>',
  '<li>หากการขออนุมัติวงเงินล่วงหน้าไม่สำเร็จเนื่องจากวงเงินบัตรไม่เพียงพอ บริษัทจะปฏิเสธการให้บริการในครั้งนั้น</li>',
  '</ul>',
  '<p>จำนวนเงินทั้งหมดเป็นสกุลเงินบาท</p>',

  '<h3>8. ค่าปรับการยกเลิกและค่าปรับการจอดเกินเวลา</h3>',
  '<p>เพื่อให้หัวชาร์จพร้อมให้บริการแก่ผู้ใช้ทุกคน บริษัทอาจเรียกเก็บ</p>',
  '<ul>',
  '<li><strong>ค่าปรับการยกเลิก</strong> เมื่อท่านยกเลิกช่วงเวลาที่จองไว้ และ</li>',
  '<li><strong>ค่าปรับการจอดเกินเวลา</strong> เมื่อยานพาหนะของท่านยังจอดอยู่ที่หัวชาร์จหลังจากช่วงเวลาที่จองไว้สิ้นสุดลง</li>',
  '</ul>',
  '<p>จำนวนค่าปรับและเงื่อนไขการเรียกเก็บค่าปรับดังกล่าวกำหนดโดยบริษัทและแสดงไว้ในแอป โดยค่าปรับจะเรียกเก็บจากบัตรชำระเงินที่ท่านลงทะเบียนไว้</p>',

  '<h3>9. หน้าที่ของผู้ใช้บริการ</h3>',
  '<p>ท่านตกลงที่จะ</p>',
  '<ul>',
  '<li>ใช้บริการและอุปกรณ์ชาร์จเพื่อชาร์จยานพาหนะที่รองรับเท่านั้น โดยปฏิบัติตามคำแนะนำในแอป ป้ายประกาศ ณ สถานี และคำแนะนำของเจ้าหน้าที่</li>',
  '<li>ไม่ทำให้อุปกรณ์ชาร์จเสียหาย ไม่ดัดแปลงหรือใช้อุปกรณ์ชาร์จในทางที่ผิด และแจ้งเราทันทีเมื่อพบความผิดปกติ ความเสียหาย หรือสิ่งที่อาจก่อให้เกิดอันตราย</li>',
  '<li>ปฏิบัติตามกฎจราจร กฎการจอดรถ และระเบียบของสถานที่ที่ตั้งสถานี</li>',
  '<li>ไม่ใช้บริการเพื่อวัตถุประสงค์ที่ผิดกฎหมาย หรือในลักษณะที่รบกวนผู้ใช้รายอื่นหรือการให้บริการ และ</li>',
  '<li>ดูแลยานพาหนะ สายชาร์จ และหัวเชื่อมต่อของท่านให้อยู่ในสภาพดีและปลอดภัย</li>',
  '</ul>',
  '<p>ท่านต้องรับผิดชอบต่อความสูญเสียหรือความเสียหายใด ๆ ที่เกิดจากการที่ท่านฝ่าฝืนข้อกำหนดนี้หรือใช้บริการในทางที่ผิด</p>',

  '<h3>10. การเปลี่ยนแปลงและการระงับบริการ</h3>',
  '<p>บริษัทอาจหยุด ระงับ ปฏิเสธ หรือเปลี่ยนแปลงบริการทั้งหมดหรือบางส่วน รวมถึงสถานี หัวชาร์จ ฟีเจอร์ เวลาให้บริการ และอัตราค่าบริการ ได้ทุกเมื่อโดยไม่ต้องแจ้งให้ทราบล่วงหน้า เช่น เพื่อการบำรุงรักษา ด้วยเหตุผลด้านความปลอดภัย หรือเนื่องจากปัญหาทางเทคนิค ไฟฟ้าขัดข้อง หรือการใช้บริการในทางที่ผิด นอกจากนี้ บริษัทอาจปฏิเสธการให้บริการแก่ผู้ใช้ที่ฝ่าฝืนข้อกำหนดนี้ หรือระงับหรือปิดบัญชีของผู้ใช้รายนั้นได้</p>',

  '<h3>11. การจำกัดความรับผิด</h3>',
  '<p>ภายในขอบเขตที่กฎหมายอนุญาต บริษัทจะรับผิดเฉพาะความเสียหายโดยตรงที่ท่านพิสูจน์ได้ว่าเกิดจากการกระทำโดยจงใจหรือความประมาทเลินเล่ออย่างร้ายแรงของบริษัทหรือของผู้ที่กระทำการแทนบริษัทเท่านั้น บริษัทไม่ต้องรับผิดต่อความเสียหายทางอ้อมหรือความเสียหายสืบเนื่องใด ๆ รวมถึงการสูญเสียกำไร รายได้ เวลา หรือโอกาส ทั้งนี้ ไม่มีข้อความใดในข้อกำหนดนี้ที่จำกัดความรับผิดซึ่งไม่อาจจำกัดได้ตามกฎหมายไทย</p>',

  '<h3>12. การแก้ไขข้อกำหนด</h3>',
  '<p>บริษัทอาจแก้ไขข้อกำหนดนี้เป็นครั้งคราว และจะเผยแพร่ข้อกำหนดฉบับแก้ไขพร้อมวันที่มีผลบังคับใช้ไว้ในแอป หากท่านยังคงใช้บริการต่อไปหลังจากข้อกำหนดฉบับแก้ไขมีผลบังคับใช้ ให้ถือว่าท่านยอมรับข้อกำหนดฉบับแก้ไขนั้นแล้ว</p>',

  '<h3>13. กฎหมายที่ใช้บังคับ</h3>',
  '<p>ข้อกำหนดนี้อยู่ภายใต้และให้ตีความตามกฎหมายแห่งราชอาณาจักรไทย ข้อพิพาทใด ๆ ให้อยู่ในเขตอำนาจของศาลไทย ข้อกำหนดนี้จัดทำขึ้นเป็นภาษาไทยและภาษาอังกฤษ หากข้อความทั้งสองฉบับขัดหรือแย้งกัน ให้ถือตามฉบับภาษาไทย</p>',

  '<h3>14. ติดต่อเรา</h3>',
  '<ul>',
  '<li><strong>บริษัท อีวี ชาร์จ ไทยแลนด์ จำกัด</strong></li>',
  CONTACT_TH,
  '</ul>',

  '<h3>15. ความเป็นส่วนตัว</h3>',
  '<p>นโยบายความเป็นส่วนตัวของเราอธิบายวิธีที่เราเก็บรวบรวม ใช้ เปิดเผย และคุ้มครองข้อมูลส่วนบุคคลของท่านเมื่อท่านใช้บริการ โปรดอ่านนโยบายดังกล่าวควบคู่กับข้อกำหนดนี้</p>',
].join('');

const PRIVACY_EN = [
  '<h2>Privacy Policy</h2>',
  '<p><strong>Effective date: 1 November 2026</strong></p>',
  '<p>EV Charge Thailand Co., Ltd. ("the Company", "we" or "us") respects your privacy. This Privacy Policy explains how we collect, use, disclose and retain your personal data when you use our electric vehicle charging service, including our mobile application (the "App"), website and charging stations (the "Service"), and describes your rights under the Personal Data Protection Act B.E. 2562 (2019) (the "PDPA"). The Company is the data controller of the personal data described in this Policy.</p>',

  '<h3>1. Personal data we collect</h3>',
  '<ul>',
  "<li><strong>Identity data:</strong> first name, last name, driver's licence details and, if you sign in with Apple, Facebook or Google, the account identifier and profile information that you allow that provider to share with us.</li>",
  '<li><strong>Contact data:</strong> email address and mobile phone number.</li>',
  '<li><strong>Meter data:</strong> information recorded by our charging equipment during your sessions, such as the station and charging point used, start and end times, energy delivered (kWh) and charging power.</li>',
  '<li><strong>Financial data:</strong> payment card details (card type, masked card number and expiry date) and the results of pre-authorizations, payments and refunds. Full card numbers are processed by our payment service providers and banks, and we do not store them.</li>',
  '<li><strong>Transaction history:</strong> bookings, check-ins, check-outs, cancellations, fees, fines and receipts.</li>',
  '<li><strong>Feedback:</strong> ratings, reviews, comments, complaints and messages you send to us, including records of your contacts with customer support.</li>',
  "<li><strong>Location and device data:</strong> your device's location when you allow location access, used to suggest nearby stations, and technical data such as device type, operating system, App version and logs.</li>",
  '</ul>',
  '<p>We collect personal data directly from you, automatically from the App and our charging equipment, and from third parties such as Apple, Facebook or Google (when you link your account), banks and payment service providers.</p>',

  '<h3>2. Why we use your personal data</h3>',
  '<p>We use your personal data for the following purposes, with the legal basis shown in brackets:</p>',
  '<ul>',
  '<li>to register you, check your eligibility and manage your account (contract);</li>',
  '<li>to provide the Service, including suggesting stations and handling scheduling, check-in, charging, payment and check-out (contract);</li>',
  '<li>to make card pre-authorizations, collect fees and fines, return differences and issue receipts (contract and legal obligation);</li>',
  '<li>to answer questions, handle complaints and provide customer support (contract and legitimate interest);</li>',
  '<li>to keep the Service and our stations safe and secure, and to prevent and investigate fraud and misuse (legitimate interest);</li>',
  '<li>to analyse use of the Service to improve our stations, App and services (legitimate interest);</li>',
  '<li>to send you news and promotional offers, only if you have given your consent (consent); and</li>',
  '<li>to comply with laws, regulations and orders of authorities, and to establish, exercise or defend legal claims (legal obligation and legitimate interest).</li>',
  '</ul>',
  '<p>Some data, such as contact data, financial data and meter data, is necessary to provide the Service. Without it, we cannot provide the Service to you.</p>',

  '<h3>3. How long we keep your personal data</h3>',
  '<p>We keep your personal data for as long as your account is active and as necessary for the purposes of this Policy. After your account is deleted, we keep data only as long as the law requires or allows, for example financial data and transaction history for the period required by accounting and tax laws, and data needed to establish or defend legal claims until the applicable limitation period ends. After that, we delete or destroy the data, or make it anonymous so that it no longer identifies you.</p>',

  '<h3>4. Who we disclose your personal data to</h3>',
  '<p>We may disclose your personal data to:</p>',
  '<ul>',
  '<li><strong>Group companies:</strong> to provide and support the Service and for the purposes described in this Policy;</li>',
  '<li><strong>Authorities:</strong> government agencies, regulators, courts and other competent authorities, when the law or a lawful order requires it;</li>',
  '<li><strong>Contractors:</strong> service providers acting on our behalf, such as IT, cloud hosting and customer support providers, and contractors who install and maintain our charging stations;</li>',
  '<li><strong>Banks and payment service providers:</strong> to make pre-authorizations, process payments and refunds, and prevent fraud; and</li>',
  '<li><strong>Business partners:</strong> such as owners and operators of the sites where our stations are located, and partners who offer joint services or promotions with us, to the extent needed for those services.</li>',
  '</ul>',
  '<p>We require recipients to protect personal data and to use it only for the agreed purposes. If we send or transfer personal data outside Thailand, for example to cloud servers, we do so in accordance with the PDPA. We do not sell your personal data.</p>',

  '<h3>5. How we protect your personal data</h3>',
  '<p>We use appropriate technical and organizational security measures, such as encryption, access control and staff training, to protect personal data against loss and unauthorized access, use, alteration or disclosure.</p>',

  '<h3>6. Your rights</h3>',
  '<p>Under the PDPA, and subject to the conditions and exceptions it sets out, you have the following rights:</p>',
  '<ul>',
  '<li><strong>Right to withdraw consent:</strong> you may withdraw your consent to processing based on consent at any time. Withdrawal does not affect processing carried out before it.</li>',
  '<li><strong>Right of access:</strong> you may access and obtain a copy of your personal data, and ask us to disclose how we obtained data that you did not consent to.</li>',
  '<li><strong>Right to data portability:</strong> you may receive your personal data in a structured, commonly used and machine-readable format, and ask us to send or transfer it to another data controller.</li>',
  '<li><strong>Right to object:</strong> you may object to the collection, use or disclosure of your personal data.</li>',
  '<li><strong>Right to erasure:</strong> you may ask us to delete or destroy your personal data, or make it anonymous.</li>',
  '<li><strong>Right to restrict processing:</strong> you may ask us to restrict the use of your personal data.</li>',
  '<li><strong>Right to rectification:</strong> you may ask us to correct your personal data so that it is accurate, up to date, complete and not misleading.</li>',
  '<li><strong>Right to complain:</strong> you may complain to the Office of the Personal Data Protection Committee if you believe that we have breached the PDPA.</li>',
  '</ul>',
  '<p>To exercise your rights, please contact our Data Protection Officer using the details below. We will respond within 30 days of receiving your request. We may need to verify your identity, and we may refuse a request where the law allows, in which case we will tell you why.</p>',

  '<h3>7. Changes to this Privacy Policy</h3>',
  '<p>We may update this Privacy Policy from time to time. We will publish the updated version in the App with its effective date and notify you of any significant changes.</p>',

  '<h3>8. Contact us</h3>',
  '<ul>',
  '<li><strong>Data controller:</strong> EV Charge Thailand Co., Ltd.</li>',
  CONTACT_EN,
  '<li><strong>Data Protection Officer (DPO):</strong> <a href="mailto:dpo@example.com">dpo@example.com</a></li>',
  '</ul>',
].join('');

const PRIVACY_TH = [
  '<h2>นโยบายความเป็นส่วนตัว</h2>',
  '<p><strong>มีผลบังคับใช้ตั้งแต่วันที่ 1 พฤศจิกายน 2569</strong></p>',
  '<p>บริษัท อีวี ชาร์จ ไทยแลนด์ จำกัด ("บริษัท" หรือ "เรา") เคารพความเป็นส่วนตัวของท่าน นโยบายความเป็นส่วนตัวฉบับนี้อธิบายวิธีที่เราเก็บรวบรวม ใช้ เปิดเผย และเก็บรักษาข้อมูลส่วนบุคคลของท่านเมื่อท่านใช้บริการชาร์จยานยนต์ไฟฟ้าของเรา ซึ่งรวมถึงแอปพลิเคชันบนโทรศัพท์มือถือ ("แอป") เว็บไซต์ และสถานีชาร์จ ("บริการ") รวมทั้งอธิบายสิทธิของท่านตามพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562 ("พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล") ทั้งนี้ บริษัทเป็นผู้ควบคุมข้อมูลส่วนบุคคลสำหรับข้อมูลที่ระบุไว้ในนโยบายนี้</p>',

  '<h3>1. ข้อมูลส่วนบุคคลที่เราเก็บรวบรวม</h3>',
  '<ul>',
  '<li><strong>ข้อมูลระบุตัวตน:</strong> ชื่อ นามสกุล ข้อมูลใบอนุญาตขับขี่ และในกรณีที่ท่านเข้าสู่ระบบด้วยบัญชี Apple, Facebook หรือ Google จะรวมถึงรหัสบัญชีและข้อมูลโปรไฟล์ที่ท่านอนุญาตให้ผู้ให้บริการดังกล่าวแบ่งปันกับเรา</li>',
  '<li><strong>ข้อมูลการติดต่อ:</strong> อีเมลและหมายเลขโทรศัพท์มือถือ</li>',
  '<li><strong>ข้อมูลมิเตอร์:</strong> ข้อมูลที่อุปกรณ์ชาร์จของเราบันทึกไว้ระหว่างการชาร์จ เช่น สถานีและหัวชาร์จที่ใช้ เวลาเริ่มต้นและสิ้นสุด ปริมาณพลังงานไฟฟ้าที่ชาร์จ (kWh) และกำลังไฟในการชาร์จ</li>',
  '<li><strong>ข้อมูลทางการเงิน:</strong> ข้อมูลบัตรชำระเงิน (ประเภทบัตร หมายเลขบัตรที่ปกปิดบางส่วน และวันหมดอายุ) และผลของการขออนุมัติวงเงินล่วงหน้า การชำระเงิน และการคืนเงิน ทั้งนี้ หมายเลขบัตรฉบับเต็มได้รับการประมวลผลโดยผู้ให้บริการชำระเงินและธนาคาร และเราไม่ได้จัดเก็บไว้</li>',
  '<li><strong>ประวัติการทำธุรกรรม:</strong> การจอง การเช็กอิน การเช็กเอาต์ การยกเลิก ค่าบริการ ค่าปรับ และใบเสร็จ</li>',
  '<li><strong>ความคิดเห็น:</strong> คะแนน รีวิว ความคิดเห็น ข้อร้องเรียน และข้อความที่ท่านส่งถึงเรา รวมถึงบันทึกการติดต่อกับฝ่ายบริการลูกค้า</li>',
  '<li><strong>ข้อมูลตำแหน่งที่ตั้งและอุปกรณ์:</strong> ตำแหน่งที่ตั้งของอุปกรณ์เมื่อท่านอนุญาตให้เข้าถึง ซึ่งใช้เพื่อแนะนำสถานีที่อยู่ใกล้เคียง และข้อมูลทางเทคนิค เช่น ประเภทอุปกรณ์ ระบบปฏิบัติการ เวอร์ชันของแอป และบันทึกการใช้งาน (log)</li>',
  '</ul>',
  '<p>เราเก็บรวบรวมข้อมูลส่วนบุคคลจากท่านโดยตรง เก็บโดยอัตโนมัติจากแอปและอุปกรณ์ชาร์จของเรา และได้รับจากบุคคลภายนอก เช่น Apple, Facebook หรือ Google (เมื่อท่านเชื่อมโยงบัญชี) ธนาคาร และผู้ให้บริการชำระเงิน</p>',

  '<h3>2. วัตถุประสงค์ในการใช้ข้อมูลส่วนบุคคล</h3>',
  '<p>เราใช้ข้อมูลส่วนบุคคลของท่านเพื่อวัตถุประสงค์ต่อไปนี้ โดยระบุฐานทางกฎหมายไว้ในวงเล็บ</p>',
  '<ul>',
  '<li>ลงทะเบียน ตรวจสอบคุณสมบัติ และจัดการบัญชีของท่าน (ฐานสัญญา)</li>',
  '<li>ให้บริการ ได้แก่ แนะนำสถานี และดำเนินการเกี่ยวกับการจอง การเช็กอิน การชาร์จ การชำระเงิน และการเช็กเอาต์ (ฐานสัญญา)</li>',
  '<li>ขออนุมัติวงเงินล่วงหน้า เรียกเก็บค่าบริการและค่าปรับ คืนส่วนต่าง และออกใบเสร็จ (ฐานสัญญาและฐานหน้าที่ตามกฎหมาย)</li>',
  '<li>ตอบคำถาม จัดการข้อร้องเรียน และให้บริการลูกค้า (ฐานสัญญาและฐานประโยชน์โดยชอบด้วยกฎหมาย)</li>',
  '<li>ดูแลความปลอดภัยของบริการและสถานีของเรา ตลอดจนป้องกันและตรวจสอบการทุจริตและการใช้บริการในทางที่ผิด (ฐานประโยชน์โดยชอบด้วยกฎหมาย)</li>',
  '<li>วิเคราะห์การใช้บริการเพื่อปรับปรุงสถานี แอป และบริการของเรา (ฐานประโยชน์โดยชอบด้วยกฎหมาย)</li>',
  '<li>ส่งข่าวสารและข้อเสนอส่งเสริมการขาย เฉพาะเมื่อท่านให้ความยินยอมแล้วเท่านั้น (ฐานความยินยอม) และ</li>',
  '<li>ปฏิบัติตามกฎหมาย ระเบียบ และคำสั่งของหน่วยงานที่มีอำนาจ และเพื่อการก่อตั้งสิทธิเรียกร้อง การใช้สิทธิเรียกร้อง หรือการยกขึ้นต่อสู้ซึ่งสิทธิเรียกร้องตามกฎหมาย (ฐานหน้าที่ตามกฎหมายและฐานประโยชน์โดยชอบด้วยกฎหมาย)</li>',
  '</ul>',
  '<p>ข้อมูลบางประเภท เช่น ข้อมูลการติดต่อ ข้อมูลทางการเงิน และข้อมูลมิเตอร์ มีความจำเป็นต่อการให้บริการ หากไม่มีข้อมูลดังกล่าว เราจะไม่สามารถให้บริการแก่ท่านได้</p>',

  '<h3>3. ระยะเวลาในการเก็บรักษาข้อมูลส่วนบุคคล</h3>',
  '<p>เราเก็บรักษาข้อมูลส่วนบุคคลของท่านตราบเท่าที่บัญชีของท่านยังเปิดใช้งานอยู่ และเท่าที่จำเป็นตามวัตถุประสงค์ที่ระบุไว้ในนโยบายนี้ หลังจากบัญชีของท่านถูกลบ เราจะเก็บข้อมูลไว้เท่าที่กฎหมายกำหนดหรืออนุญาตเท่านั้น เช่น เก็บข้อมูลทางการเงินและประวัติการทำธุรกรรมตามระยะเวลาที่กฎหมายว่าด้วยการบัญชีและภาษีอากรกำหนด และเก็บข้อมูลที่จำเป็นต่อการก่อตั้งหรือยกขึ้นต่อสู้ซึ่งสิทธิเรียกร้องตามกฎหมายจนกว่าอายุความที่เกี่ยวข้องจะสิ้นสุดลง เมื่อพ้นระยะเวลาดังกล่าว เราจะลบหรือทำลายข้อมูล หรือทำให้ข้อมูลนั้นไม่สามารถระบุตัวท่านได้อีก</p>',

  '<h3>4. การเปิดเผยข้อมูลส่วนบุคคล</h3>',
  '<p>เราอาจเปิดเผยข้อมูลส่วนบุคคลของท่านให้แก่</p>',
  '<ul>',
  '<li><strong>บริษัทในกลุ่ม:</strong> เพื่อให้บริการและสนับสนุนการให้บริการ และเพื่อวัตถุประสงค์ตามที่ระบุไว้ในนโยบายนี้</li>',
  '<li><strong>หน่วยงานที่มีอำนาจ:</strong> หน่วยงานของรัฐ หน่วยงานกำกับดูแล ศาล และหน่วยงานอื่นที่มีอำนาจตามกฎหมาย เมื่อกฎหมายหรือคำสั่งที่ชอบด้วยกฎหมายกำหนดให้ต้องเปิดเผย</li>',
  '<li><strong>ผู้รับจ้าง:</strong> ผู้ให้บริการที่ดำเนินการในนามของเรา เช่น ผู้ให้บริการด้านไอที ระบบคลาวด์ และศูนย์บริการลูกค้า รวมถึงผู้รับจ้างติดตั้งและบำรุงรักษาสถานีชาร์จของเรา</li>',
  '<li><strong>ธนาคารและผู้ให้บริการชำระเงิน:</strong> เพื่อขออนุมัติวงเงินล่วงหน้า ดำเนินการชำระเงินและคืนเงิน และป้องกันการทุจริต และ</li>',
  '<li><strong>พันธมิตรทางธุรกิจ:</strong> เช่น เจ้าของและผู้บริหารสถานที่ที่ตั้งสถานีชาร์จของเรา และพันธมิตรที่ร่วมให้บริการหรือจัดกิจกรรมส่งเสริมการขายกับเรา เท่าที่จำเป็นสำหรับบริการดังกล่าว</li>',
  '</ul>',
  '<p>เรากำหนดให้ผู้รับข้อมูลต้องคุ้มครองข้อมูลส่วนบุคคล และใช้ข้อมูลเฉพาะตามวัตถุประสงค์ที่ตกลงกันไว้เท่านั้น หากเราส่งหรือโอนข้อมูลส่วนบุคคลไปยังต่างประเทศ เช่น ไปยังเซิร์ฟเวอร์คลาวด์ เราจะดำเนินการตาม พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล ทั้งนี้ เราไม่ขายข้อมูลส่วนบุคคลของท่าน</p>',

  '<h3>5. การรักษาความปลอดภัยของข้อมูลส่วนบุคคล</h3>',
  '<p>เราใช้มาตรการรักษาความปลอดภัยทั้งด้านเทคนิคและด้านการบริหารจัดการที่เหมาะสม เช่น การเข้ารหัสข้อมูล การควบคุมการเข้าถึง และการฝึกอบรมพนักงาน เพื่อป้องกันการสูญหาย และการเข้าถึง ใช้ เปลี่ยนแปลง หรือเปิดเผยข้อมูลส่วนบุคคลโดยไม่ได้รับอนุญาต</p>',

  '<h3>6. สิทธิของท่าน</h3>',
  '<p>ภายใต้ พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล และตามเงื่อนไขและข้อยกเว้นที่กฎหมายกำหนด ท่านมีสิทธิดังต่อไปนี้</p>',
  '<ul>',
  '<li><strong>สิทธิในการเพิกถอนความยินยอม:</strong> ท่านสามารถเพิกถอนความยินยอมสำหรับการประมวลผลที่อาศัยความยินยอมได้ทุกเมื่อ ทั้งนี้ การเพิกถอนไม่กระทบต่อการประมวลผลที่ได้ดำเนินการไปแล้วก่อนหน้านั้น</li>',
  '<li><strong>สิทธิในการเข้าถึงข้อมูล:</strong> ท่านสามารถขอเข้าถึงและขอรับสำเนาข้อมูลส่วนบุคคลของท่าน รวมถึงขอให้เราเปิดเผยถึงการได้มาซึ่งข้อมูลที่ท่านไม่ได้ให้ความยินยอม</li>',
  '<li><strong>สิทธิในการโอนย้ายข้อมูล:</strong> ท่านสามารถขอรับข้อมูลส่วนบุคคลของท่านในรูปแบบที่มีการจัดระเบียบ เป็นที่ใช้งานทั่วไป และอ่านได้ด้วยเครื่องมืออัตโนมัติ และขอให้เราส่งหรือโอนข้อมูลดังกล่าวไปยังผู้ควบคุมข้อมูลส่วนบุคคลรายอื่น</li>',
  '<li><strong>สิทธิในการคัดค้าน:</strong> ท่านสามารถคัดค้านการเก็บรวบรวม ใช้ หรือเปิดเผยข้อมูลส่วนบุคคลของท่าน</li>',
  '<li><strong>สิทธิในการขอให้ลบข้อมูล:</strong> ท่านสามารถขอให้เราลบหรือทำลายข้อมูลส่วนบุคคลของท่าน หรือทำให้ข้อมูลนั้นไม่สามารถระบุตัวท่านได้</li>',
  '<li><strong>สิทธิในการขอให้ระงับการใช้ข้อมูล:</strong> ท่านสามารถขอให้เราระงับการใช้ข้อมูลส่วนบุคคลของท่าน</li>',
  '<li><strong>สิทธิในการขอให้แก้ไขข้อมูล:</strong> ท่านสามารถขอให้เราแก้ไขข้อมูลส่วนบุคคลของท่านให้ถูกต้อง เป็นปัจจุบัน สมบูรณ์ และไม่ก่อให้เกิดความเข้าใจผิด</li>',
  '<li><strong>สิทธิในการร้องเรียน:</strong> ท่านสามารถร้องเรียนต่อสำนักงานคณะกรรมการคุ้มครองข้อมูลส่วนบุคคล หากท่านเห็นว่าเราฝ่าฝืน พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล</li>',
  '</ul>',
  '<p>หากท่านประสงค์จะใช้สิทธิ โปรดติดต่อเจ้าหน้าที่คุ้มครองข้อมูลส่วนบุคคลของเราตามช่องทางด้านล่าง เราจะตอบกลับภายใน 30 วันนับแต่วันที่ได้รับคำขอ เราอาจจำเป็นต้องตรวจสอบยืนยันตัวตนของท่าน และอาจปฏิเสธคำขอในกรณีที่กฎหมายอนุญาต ซึ่งเราจะแจ้งเหตุผลให้ท่านทราบ</p>',

  '<h3>7. การเปลี่ยนแปลงนโยบายความเป็นส่วนตัว</h3>',
  '<p>เราอาจปรับปรุงนโยบายความเป็นส่วนตัวนี้เป็นครั้งคราว โดยจะเผยแพร่ฉบับปรับปรุงพร้อมวันที่มีผลบังคับใช้ไว้ในแอป และจะแจ้งให้ท่านทราบหากมีการเปลี่ยนแปลงที่สำคัญ</p>',

  '<h3>8. ติดต่อเรา</h3>',
  '<ul>',
  '<li><strong>ผู้ควบคุมข้อมูลส่วนบุคคล:</strong> บริษัท อีวี ชาร์จ ไทยแลนด์ จำกัด</li>',
  CONTACT_TH,
  '<li><strong>เจ้าหน้าที่คุ้มครองข้อมูลส่วนบุคคล (DPO):</strong> <a href="mailto:dpo@example.com">dpo@example.com</a></li>',
  '</ul>',
].join('');

export const TERMS = {
  titleEn: 'Terms and Conditions',
  titleTh: 'ข้อกำหนดและเงื่อนไข',
  detailEn: TERMS_EN,
  detailTh: TERMS_TH,
};
export const PRIVACY = {
  titleEn: 'Privacy Policy',
  titleTh: 'นโยบายความเป็นส่วนตัว',
  detailEn: PRIVACY_EN,
  detailTh: PRIVACY_TH,
};
