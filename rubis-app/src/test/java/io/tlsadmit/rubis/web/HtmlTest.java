package io.tlsadmit.rubis.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void escapesEveryCharacterThatCanEndTextOrAnAttribute() {
        assertEquals("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;",
                Html.escape("<script>alert('x')</script> & \"q\""));
    }

    @Test
    void leavesPlainTextAsItIs() {
        String plain = "CA--San Francisco, 12.50 \u00e9t\u00e9";
        assertSame(plain, Html.escape(plain));
    }

    @Test
    void linksEncodeTheirParametersAndThePageEscapesThem() {
        HtmlPage page = new Site("/rubis").page("t");
        page.link(new Site("/rubis").servlet("ViewItem").with("itemId", "1&x=\"2\"").with("n", "a b"), "<b>");
        String html = page.render();
        assertTrue(html.contains("href=\"/rubis/servlet/ViewItem?itemId=1%26x%3D%222%22&amp;n=a+b\">&lt;b&gt;</a>"),
                html);
    }
}
