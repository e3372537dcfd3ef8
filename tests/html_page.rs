//! The HTML page builder (`emu::html::page`): escaping, inlined SVGs, and a page's text
//! and script.

use emu::html::page::{Page, Table, escape, inline_svg};

#[test]
fn escaping_covers_markup_and_quotes() {
    assert_eq!(
        escape("<a href=\"x\">&'"),
        "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
    );
}

#[test]
fn svgs_lose_their_declaration_and_namespace() {
    let svg = "<?xml version=\"1.0\"?>\n<svg width=\"8\" xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>";
    assert_eq!(inline_svg(svg), "<svg width=\"8\"><rect/></svg>");
}

#[test]
fn a_page_escapes_its_text() {
    let mut p = Page::new("a <b> & c");
    p.table(&Table::new(&["x"], vec![vec!["</td>".into()]], 1));
    let html = p.finish();
    assert!(html.contains("<title>a &lt;b&gt; &amp; c</title>"));
    assert!(html.contains("<td>&lt;/td&gt;</td>"));
    // The page's script, written into it as it is, has no `<` to end its element early.
    let (_, tail) = html.rsplit_once("<script>\n").expect("a script");
    let (script, _) = tail.split_once("</script>").expect("its end");
    assert!(!script.is_empty() && !script.contains('<'), "{script}");
}
