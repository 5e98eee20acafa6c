// "Copy" buttons next to the battle links: the clipboard API where the page is a secure
// context (https, localhost), else the old select-and-copy, which works over plain http too.
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
