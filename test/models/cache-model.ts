/** The small two-class model the cache test and the distinct-queries bench flood with queries. */
export const CACHE_MODEL = `<jdo><package name="cc">
  <class name="Author" identity-type="application">
    <fetch-group name="withBooks"><field name="books"/></fetch-group>
    <field name="id" primary-key="true" field-type="long"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="books" field-type="java.util.List" mapped-by="author" default-fetch-group="false"><collection element-type="Book"/></field>
  </class>
  <class name="Book" identity-type="application">
    <fetch-group name="withAuthor"><field name="author"/></fetch-group>
    <field name="id" primary-key="true" field-type="long"/>
    <field name="title" field-type="java.lang.String"/>
    <field name="pages" field-type="int"/>
    <field name="author" field-type="Author" default-fetch-group="false"/>
  </class>
</package></jdo>`;
