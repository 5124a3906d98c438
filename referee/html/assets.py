"""The page's style and its one script (allowed by its hash in the page's CSP)."""

STYLE = """
:root{--bg:#fff;--fg:#1b1b1b;--muted:#5f6368;--line:#d9d9de;--panel:#f5f6f8;--bad:#b3261e;--bad-bg:#fdecea;
--ok:#1e7d32;--warn:#8a6100;--acc:#5f6368;--link:#0b57d0;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e6e6;--muted:#a0a4aa;--line:#34383e;--panel:#1f2226;
--bad:#ff8a80;--bad-bg:#3a1d1b;--ok:#81c995;--warn:#fdd663;--acc:#a0a4aa;--link:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:.75rem;background:var(--bg);color:var(--fg);
font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--link)}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.2rem 0 .5rem}h4{margin:.8rem 0 .3rem}
.card-defs{position:absolute;width:0;height:0;overflow:hidden}
svg.card{vertical-align:middle;margin:1px;flex:none}
.cards{display:inline-flex;flex-wrap:wrap;align-items:center;gap:1px;vertical-align:middle}
.more{color:var(--muted);font-size:.85rem;margin-left:.25rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse}
.summary-table{width:100%;min-width:46rem;table-layout:fixed;font-size:.9rem}.summary-table th:nth-child(1){width:3.2rem}.summary-table th:nth-child(2){width:8rem}.summary-table th:nth-child(3){width:9rem}.summary-table th:nth-child(4){width:5.5rem}.summary-table th:nth-child(5){width:10rem}.summary-table th:nth-child(6){width:12rem}.summary-table .where{overflow-wrap:anywhere;min-width:10rem}
.summary-table th,.summary-table td{border-bottom:1px solid var(--line);padding:.3rem .4rem;text-align:left;vertical-align:top}
.summary-table th button{font:inherit;font-weight:700;background:none;border:0;color:inherit;padding:0;cursor:pointer}
.summary-table th[aria-sort=ascending] button::after{content:" \\25B2"}
.summary-table th[aria-sort=descending] button::after{content:" \\25BC"}
details.game{content-visibility:auto;contain-intrinsic-size:auto 3rem;border:1px solid var(--line);border-radius:8px;margin:.6rem 0;background:var(--bg)}
details.game>summary{cursor:pointer;padding:.55rem .7rem;display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline;
background:var(--panel);border-radius:8px}
details.game[open]>summary{border-bottom:1px solid var(--line);border-radius:8px 8px 0 0}
summary .num{color:var(--muted)}summary .name{font-weight:700}summary .info{color:var(--muted);font-size:.9rem}
.status{font-weight:700}.s-valid .status,.status.s-valid{color:var(--ok)}
.s-violations .status,.status.s-violations,.s-error .status,.status.s-error{color:var(--bad)}
.s-in-progress .status,.status.s-in-progress,.s-never-ends .status,.status.s-never-ends{color:var(--warn)}
.body{padding:.5rem .7rem}
.place{color:var(--muted);font-size:.85rem;margin:.2rem 0;overflow-wrap:anywhere}
.result{padding-left:1.1rem;margin:.3rem 0}
.drinks{margin:.5rem 0;font-size:.9rem}.drinks caption{text-align:left;font-weight:700}
.drinks th,.drinks td{border-bottom:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
.notes{color:var(--muted);font-size:.9rem}
.errors pre{white-space:pre-wrap;margin:0}
.violation{border-left:4px solid var(--bad);background:var(--bad-bg);padding:.35rem .6rem;margin:.35rem 0;border-radius:0 6px 6px 0}
.violation.is-accepted{border-left-style:dashed;border-left-color:var(--acc);background:var(--panel)}
.violation p{margin:.15rem 0}.violation .code{font-weight:700;font-family:ui-monospace,monospace}
.violation .where{color:var(--muted);font-size:.85rem}
.violation blockquote{margin:.3rem 0 .3rem .2rem;font-style:italic}
.why{font-size:.92rem}
.badge{display:inline-block;border:1px solid var(--acc);border-radius:999px;padding:0 .45rem;font-size:.8rem;color:var(--acc)}
.timeline{list-style:none;padding:0;margin:.3rem 0}
.timeline li{padding:.15rem .2rem;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.timeline li.event{cursor:pointer}
.timeline li.event:hover,.timeline li.event:focus{background:var(--panel);outline:none}
.timeline li.flagged{border-left:4px solid var(--bad);padding-left:.4rem}
.timeline li.comment{color:var(--muted);font-style:italic}
.ln{display:inline-block;min-width:2.6em;color:var(--muted);font-size:.8rem;font-variant-numeric:tabular-nums}
.hint,.note{color:var(--muted);font-size:.85rem}
.checkpoint{margin:.25rem 0 .25rem 2.6em}.checkpoint summary{color:var(--link);cursor:pointer;font-size:.9rem}
.state-panel{margin:.3rem 0 .5rem 2.6em;padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--panel);cursor:default}
.state-panel h5{margin:0 0 .3rem;font-size:.95rem;display:flex;justify-content:space-between;gap:1rem}
.state-panel button{font:inherit;font-size:.85rem}
dl.state{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .7rem;margin:.3rem 0}
dl.state dt{font-weight:700}dl.state dd{margin:0}
dl.state .line{display:block}
figure.chart{margin:.7rem 0;max-width:44rem;overflow-x:auto}
figure.chart figcaption{font-weight:700;font-size:.95rem}
figure.chart>svg{width:100%;height:auto;display:block}
figure.chart text{font-size:13px;fill:currentColor}
figure.chart path,figure.chart line{vector-effect:non-scaling-stroke}
figure.chart .axes line,figure.chart line.base{stroke:var(--muted);stroke-width:1}
figure.chart text.who{font-weight:700}figure.chart text.scale{fill:var(--muted)}
figure.chart .drunk rect{fill-opacity:.35;stroke-width:1.5}
figure.chart rect.differs{fill:none;stroke:var(--bad);stroke-width:2.5;vector-effect:non-scaling-stroke}
figure.chart text.mark,.drinks .mark{fill:var(--bad);color:var(--bad);font-weight:700}
.drinks tr.differs td:last-child{background:var(--bad-bg)}.drinks .off{color:var(--bad);font-weight:700}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.legend{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.2rem .9rem;font-size:.85rem}
.legend li{min-width:0;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.legend svg{vertical-align:-1px;margin-right:.3rem}
.legend text.mark{font-size:12px}
footer{color:var(--muted);font-size:.85rem;margin:1.5rem 0}
@media (max-width:600px){body{padding:.4rem;font-size:15px}
.summary-table{min-width:0;font-size:.8rem;line-height:1.3}.summary-table th:nth-child(1){width:2rem}.summary-table th:nth-child(2){width:5rem}
.summary-table th:nth-child(4){width:5.4rem}.summary-table th:nth-child(5),.summary-table th:nth-child(6){width:auto}
.summary-table th:nth-child(3),.summary-table td:nth-child(3),.summary-table th:nth-child(7),.summary-table td:nth-child(7){display:none}
.summary-table th,.summary-table td{padding:.25rem .25rem}.summary-table td{overflow-wrap:anywhere}
dl.state{grid-template-columns:1fr}
dl.state dd{margin-bottom:.3rem}.ln{min-width:2.2em}.checkpoint,.state-panel{margin-left:0}
figure.chart svg[role=img] text{font-size:17px}figure.chart svg[role=img] circle{r:5px}}
@media (max-width:480px){figure.chart svg[role=img] text{font-size:22px}figure.chart svg[role=img] circle{r:6.5px}}
@media print{:root{--bg:#fff;--fg:#000;--panel:#fff;--bad-bg:#fff}body{max-width:none;font-size:11pt}
details.game{break-inside:auto;border:0;border-top:2px solid #000;border-radius:0}
details.game::details-content{content-visibility:visible;display:block}
details.game>summary{background:none}.hint,.state-panel{display:none}a{color:inherit;text-decoration:none}
figure.chart,.violation{break-inside:avoid}}
"""

SCRIPT = """(function(){"use strict";
var SVG="http://www.w3.org/2000/svg",DIGITS="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
function data(id){var e=document.getElementById(id);return e?JSON.parse(e.textContent):null}
var names=data("card-names")||{},ui=data("page-words")||{};
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
function card(c){var s=document.createElementNS(SVG,"svg");s.setAttribute("class","card");s.setAttribute("role","img");
s.setAttribute("aria-label",names[c]||c);s.setAttribute("width","34");s.setAttribute("height","48");s.setAttribute("viewBox","0 0 60 84");
var u=document.createElementNS(SVG,"use");u.setAttribute("href","#card-"+c);s.appendChild(u);return s}
function cards(text,limit){var span=el("span","cards"),list=text.split(/[ ,]/).filter(Boolean),n=list.length;
if(limit&&n>limit)list=list.slice(0,limit);list.forEach(function(c){span.appendChild(card(c))});
if(limit&&n>limit)span.appendChild(el("span","more",(ui.more||"+{count}").replace("{count}",n-limit)));return span}
function hand(n){return (ui.hand&&ui.hand[n])||String(n)}
var cache={};
function stateAt(game,i){var c=cache[game.id];if(!c){c=cache[game.id]={d:data(game.id+"-data"),s:[]}}
var s=c.s;for(var k=s.length;k<=i;k++){var prev=k?s[k-1]:{},next={},d=c.d.s[k];
for(var key in prev)next[key]=prev[key];for(key in d){var v=d[key];if(v===null)delete next[key];
else if(Array.isArray(v)){var o=prev[key]||"";next[key]=o.slice(0,v[0])+v[2]+o.slice(o.length-v[1])}else next[key]=v}s.push(next)}
return {state:s[i],players:c.d.p}}
function row(dl,label,content){dl.appendChild(el("dt",null,label));var dd=el("dd");
if(typeof content==="string")dd.textContent=content;else dd.appendChild(content);dl.appendChild(dd)}
function lines(text){var f=document.createDocumentFragment();text.split("\\n").forEach(function(t){f.appendChild(el("span","line",t))});return f}
function drawState(st,players){var dl=el("dl","state");if(st.t)row(dl,ui.turn,st.t);
players.forEach(function(p,seat){var h=st["h"+seat];if(h==null)return;var bar=h.indexOf("|"),n=+h.slice(0,bar),known=h.slice(bar+1);
var unseen=Math.max(0,n-known.split(" ").filter(Boolean).length),f=document.createDocumentFragment();
f.appendChild(document.createTextNode(hand(n)+" "));var codes=known;for(var k=0;k<Math.min(unseen,3);k++)codes+=" back";
if(codes.trim())f.appendChild(cards(codes,12));row(dl,p,f)});
Object.keys(st).forEach(function(k){if(k.slice(0,2)==="p:")row(dl,k.slice(2),st[k]?cards(st[k],12):ui.empty)});
if(st.k!=null)row(dl,ui.stock,hand(+st.k));
[["o",ui.owed],["c",ui.scores],["d",ui.todo]].forEach(function(p){if(st[p[0]]!=null)row(dl,p[1],lines(st[p[0]]))});
Object.keys(st).forEach(function(k){if(k.slice(0,2)==="x:")row(dl,k.slice(2),st[k])});return dl}
function showState(li){var game=li.closest("details.game"),i=+li.getAttribute("data-i");
var old=game.querySelector(".state-panel");if(old){var was=old.parentNode===li;old.remove();li.setAttribute("aria-expanded","false");if(was)return}
var got=stateAt(game,i),panel=el("div","state-panel"),h=el("h5"),line=li.querySelector(".ln").textContent;
h.appendChild(el("span",null,(ui.after||"").replace("{line}",line)));var close=el("button",null,ui.close);close.type="button";
h.appendChild(close);panel.appendChild(h);panel.appendChild(drawState(got.state,got.players));li.appendChild(panel);
li.setAttribute("aria-expanded","true")}
function drawLight(game){var ol=game.querySelector("ol.timeline[data-light]");if(!ol||ol.getAttribute("data-drawn"))return;
ol.setAttribute("data-drawn","1");var d=data(game.id+"-data");ol.textContent="";var tokens=d.e?d.e.split(" "):[],line=0,ci=0,move=null,time="",f=document.createDocumentFragment();
function comment(upto){while(ci<d.c.length&&d.c[ci][0]<upto){var li=el("li","comment");li.appendChild(el("span","ln",String(d.c[ci][0])));
li.appendChild(document.createTextNode(" "+d.c[ci][1]));f.appendChild(li);ci++}}
tokens.forEach(function(t,i){line=d.g[i]!=null?d.g[i]:line+1;comment(line);var li=el("li","event"+(d.w[i]?" flagged":""));
li.id=game.id+"-e"+i;li.appendChild(el("span","ln",String(line)));li.appendChild(document.createTextNode(" "));
var tilde=t.indexOf("~"),flags=tilde<0?"":t.slice(tilde+1);if(tilde>=0)t=t.slice(0,tilde);
var before,after="",cs=t.slice(2),x=d.x[i];if(t.slice(0,2)==="__"){before=x[0];after=x[1]}
else{var pre="";if(d.m[i]!=null){pre+=d.m[i]+" ";move=parseInt(d.m[i],10);if(isNaN(move))move=null}
else if(flags.indexOf("m")>=0){move+=1;pre+=move+". "}
if(d.t[i]!=null){time=d.t[i];pre+=time+" "}else if(flags.indexOf("t")>=0)pre+=time+" ";
before=pre+d.p[DIGITS.indexOf(t[0])]+" "+d.v[DIGITS.indexOf(t[1])]+(cs?" ":"");after=x||""}
li.appendChild(el("span","text",before));if(cs)li.appendChild(cards(cs,0));if(after)li.appendChild(el("span","text",after));
(d.w[i]||[]).forEach(function(k){var a=el("a","code","\\u26A0 "+k);a.href="#"+game.id+"-v"+k;
var v=document.getElementById(game.id+"-v"+k);if(v)a.textContent="\\u26A0 "+v.querySelector(".code").textContent;li.appendChild(document.createTextNode(" "));li.appendChild(a)});
f.appendChild(li)});comment(Infinity);ol.appendChild(f)}
document.addEventListener("toggle",function(e){var t=e.target;if(t.matches&&t.matches("details.game.light")&&t.open)drawLight(t)},true);
document.addEventListener("click",function(e){var t=e.target;if(t.closest(".state-panel")){if(t.tagName==="BUTTON"){var li=t.closest("li.event");
t.closest(".state-panel").remove();li.setAttribute("aria-expanded","false");li.focus()}return}
if(t.closest("a,summary,details.checkpoint"))return;var li=t.closest("details.game:not(.light) li.event");if(li)showState(li)});
document.addEventListener("keydown",function(e){if((e.key==="Enter"||e.key===" ")&&e.target.matches&&e.target.matches("li.event[tabindex]")){e.preventDefault();showState(e.target)}});
document.querySelectorAll("details.game:not(.light) li.event").forEach(function(li){li.tabIndex=0;li.setAttribute("role","button");li.setAttribute("aria-expanded","false")});
var table=document.getElementById("summary");
if(table)table.querySelectorAll("th button").forEach(function(b){b.addEventListener("click",function(){var th=b.parentNode,col=+b.getAttribute("data-col"),
up=th.getAttribute("aria-sort")!=="ascending",body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
table.querySelectorAll("th").forEach(function(x){x.setAttribute("aria-sort","none")});th.setAttribute("aria-sort",up?"ascending":"descending");
function key(r){var c=r.cells[col],v=c.getAttribute("data-v");return v!=null?+v:c.textContent.toLowerCase()}
rows.sort(function(a,b){var x=key(a),y=key(b),r=x<y?-1:x>y?1:0;return up?r:-r});var f=document.createDocumentFragment();rows.forEach(function(r){f.appendChild(r)});body.appendChild(f)})});
function reveal(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;var t=document.getElementById(id);if(!t)return;
var d=t.closest("details.game");if(d&&!d.open){d.open=true;if(d.classList.contains("light"))drawLight(d);t=document.getElementById(id)||t}t.scrollIntoView()}
document.querySelectorAll("details.game.light[open]").forEach(drawLight);
window.addEventListener("hashchange",reveal);reveal();
window.addEventListener("beforeprint",function(){document.querySelectorAll("details.game:not(.light),details.checkpoint").forEach(function(d){d.open=true})});
})();"""
