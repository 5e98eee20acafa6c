// "Copy" buttons next to the battle links: the clipboard API where the page is a secure
// context (https, localhost), else the old select-and-copy, which works over plain http too.
// "Share" (the phone's share sheet) where the browser has one.
document.addEventListener("click", function (event) {
  var share = event.target.closest("button[data-share]");
  if (!share || !navigator.share) return;
  var link = document.getElementById(share.getAttribute("data-share"));
  if (link) navigator.share({title: document.title, url: link.value}).catch(function () { /* dismissed */ });
});
function showShare() {
  if (!navigator.share) return;
  Array.prototype.forEach.call(document.querySelectorAll("button[data-share]"), function (b) { b.hidden = false; });
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showShare); else showShare();
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-copy"));
  if (!field) return;
  var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done);
  } else {
    field.select();
    if (document.execCommand("copy")) done();
  }
});
